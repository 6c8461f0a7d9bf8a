#!/usr/bin/env python3
"""Post-process translations/dspark-timeline_zh_CN.ts after lupdate.

1. Files that call a file-local `tr()` wrapper get the wrong context from lupdate (it files the message
   under the namespace, e.g. "dspark::cli"), while the wrapper translates with its own context at run
   time. Until those wrappers are replaced by QCoreApplication::translate("Ctx", ...) calls, this moves
   each such message to the context its file's wrapper uses (needs lupdate -locations absolute/relative).
2. Optionally fills untranslated messages from a JSON dictionary {source: translation}.
3. Drops <location> elements so the file does not churn.
usage: ts_fix.py TS [--dict zh.json]
"""
import json
import re
import sys
import xml.etree.ElementTree as ET

WRAPPER_CONTEXT = {
    "StepAlignment.cpp": "StepAlignment",
    "AnomalyDetector.cpp": "AnomalyDetector",
    "StepRecordLoader.cpp": "StepRecordLoader",
    "DemoWriter.cpp": "DemoWriter",
    "ChromeTraceLoader.cpp": "ChromeTraceLoader",
    "AnalyzeCommand.cpp": "cli",
    "StepsCommand.cpp": "cli",
    "DemoCommand.cpp": "cli",
    "InfoCommand.cpp": "cli",
    "ExportCommand.cpp": "cli",
    "TimelineRenderer.cpp": "TimelineRenderer",
}


def main():
    path = sys.argv[1]
    dictionary = {}
    if "--dict" in sys.argv:
        dictionary = json.load(open(sys.argv[sys.argv.index("--dict") + 1], encoding="utf-8"))
    tree = ET.parse(path)
    root = tree.getroot()
    contexts = {c.findtext("name"): c for c in root.findall("context")}
    moved = 0
    for ctx in list(root.findall("context")):
        name = ctx.findtext("name")
        for msg in list(ctx.findall("message")):
            loc = msg.find("location")
            fname = loc.get("filename").rsplit("/", 1)[-1] if loc is not None else ""
            target = WRAPPER_CONTEXT.get(fname)
            if target and target != name and (name.startswith("dspark") or name in ("std", "")):
                ctx.remove(msg)
                if target not in contexts:
                    c = ET.SubElement(root, "context")
                    ET.SubElement(c, "name").text = target
                    contexts[target] = c
                dest = contexts[target]
                src = msg.findtext("source")
                if not any(m.findtext("source") == src for m in dest.findall("message")):
                    dest.append(msg)
                moved += 1
        if not ctx.findall("message"):
            root.remove(ctx)
    filled = missing = 0
    for msg in root.iter("message"):
        for loc in msg.findall("location"):
            msg.remove(loc)
        tr = msg.find("translation")
        src = msg.findtext("source")
        forms = tr.findall("numerusform")
        text = (forms[0].text if forms else tr.text) or ""
        if text.strip() and tr.get("type") != "unfinished":
            continue
        if src in dictionary and dictionary[src].strip():
            if forms:
                for f in forms:
                    f.text = dictionary[src]
            else:
                tr.text = dictionary[src]
            tr.attrib.pop("type", None)
            filled += 1
        elif text.strip():
            tr.attrib.pop("type", None)
        else:
            missing += 1
            print("untranslated:", repr(src), file=sys.stderr)
    ET.indent(tree, space="    ")
    with open(path, "wb") as f:
        f.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(f, encoding="utf-8", xml_declaration=False)
        f.write(b"\n")
    print(f"moved {moved}, filled {filled}, untranslated {missing}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
