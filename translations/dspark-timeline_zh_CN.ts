<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ChromeTraceLoader</name>
    <message>
        <source>%1: this format is not supported yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MsprofDbLoader</name>
    <message>
        <source>%1: this format is not supported yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProfileLoader</name>
    <message>
        <source>%1: cannot be read</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scanning %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no profiler data could be loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Indexing events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the profile holds no timed events (only metadata)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Done</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ProfileScanner</name>
    <message>
        <source>%1: no such file or folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: cannot read the folder (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: not a recognised profiler file (expected a msprof / torch_npu .db, a trace JSON or DSpark step records)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: no profiler output found (no msprof / torch_npu database, trace JSON or DSpark step records)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>StepRecordLoader</name>
    <message>
        <source>%1: this format is not supported yet</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>cli</name>
    <message>
        <source>List the files, ranks, lanes and totals of a profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>usage: dspark-timeline info PATH [--json]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lanes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warning</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>dspark::ui::MainWindow</name>
    <message>
        <source>DSpark Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a profile folder (File › Open Profile Folder…) or drop one here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lane</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Kind</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Profile &amp;Folder…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open F&amp;ile…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ctrl+Shift+O</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Profile Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open Profile File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Profiles (*.db *.json *.json.gz *.jsonl);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading cancelled</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open profile</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 — DSpark Timeline</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n lane(s), %1 warning(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
</context>
</TS>
