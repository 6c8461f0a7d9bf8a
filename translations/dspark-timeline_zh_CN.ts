<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
    <context>
        <name>AnalysisRules</name>
        <message>
            <source>bad regular expression "%1": %2</source>
            <translation>错误的正则表达式 "%1"：%2</translation>
        </message>
        <message>
            <source>%1: not a JSON object of name rules</source>
            <translation>%1：不是名称规则的 JSON 对象</translation>
        </message>
        <message>
            <source>%1: "comm_streams" must be a list of stream ids</source>
            <translation>%1："comm_streams" 必须是流 ID 列表</translation>
        </message>
        <message>
            <source>%1: unknown rule "%2"</source>
            <translation>%1：未知规则 "%2"</translation>
        </message>
        <message>
            <source>%1: rule "%2" must be a list of regular expressions</source>
            <translation>%1：规则 "%2" 必须是正则表达式列表</translation>
        </message>
        <message>
            <source>%1: rule "%2": %3</source>
            <translation>%1：规则 "%2"：%3</translation>
        </message>
        <message>
            <source>%1: cannot be read</source>
            <translation>%1：无法读取</translation>
        </message>
    </context>
    <context>
        <name>AnalyzeReport</name>
        <message>
            <source>Overlap analysis (ms)</source>
            <translation>重叠分析（ms）</translation>
        </message>
        <message>
            <source>computing</source>
            <translation>计算</translation>
        </message>
        <message>
            <source>communication</source>
            <translation>通信</translation>
        </message>
        <message>
            <source>not overlapped</source>
            <translation>未重叠</translation>
        </message>
        <message>
            <source>free</source>
            <translation>空闲</translation>
        </message>
        <message>
            <source>No aligned DSpark step records: no per-step analysis.</source>
            <translation>没有已对齐的 DSpark 步记录：不进行逐步分析。</translation>
        </message>
        <message>
            <source>Steps (ms)</source>
            <translation>步（ms）</translation>
        </message>
        <message>
            <source>wall</source>
            <translation>墙钟</translation>
        </message>
        <message>
            <source>vs record</source>
            <translation>与记录对比</translation>
        </message>
        <message>
            <source>out-of-segment vs unattributed_ms</source>
            <translation>段外时间与 unattributed_ms 对比</translation>
        </message>
        <message>
            <source>critical path</source>
            <translation>关键路径</translation>
        </message>
    </context>
    <context>
        <name>AnnotationSet</name>
        <message>
            <source>%1: not valid JSON at byte %2 (%3)</source>
            <translation>%1：第 %2 字节处不是有效的 JSON（%3）</translation>
        </message>
        <message>
            <source>%1: not a DSpark Timeline annotation file</source>
            <translation>%1：不是 DSpark Timeline 标注文件</translation>
        </message>
        <message>
            <source>%1: cannot be written (%2)</source>
            <translation>%1：无法写入（%2）</translation>
        </message>
        <message>
            <source>%1: cannot be read (%2)</source>
            <translation>%1：无法读取（%2）</translation>
        </message>
    </context>
    <context>
        <name>AnomalyDetector</name>
        <message>
            <source>bs not recorded</source>
            <translation>未记录 bs</translation>
        </message>
        <message>
            <source>verify tokens not recorded</source>
            <translation>未记录验证 token 数</translation>
        </message>
        <message>
            <source>verify tokens=%1</source>
            <translation>验证 token 数=%1</translation>
        </message>
        <message>
            <source>, graph key %1</source>
            <translation>，图键 %1</translation>
        </message>
        <message>
            <source>longer acceptance, worse TPOT: mean commit length %1 vs median %2 of %3 steps, yet effective TPOT %4 ms vs median %5 ms (%6 ms at the median step time)</source>
            <translation>接受更长、TPOT 更差：平均提交长度 %1，%3 个步骤的中位数为 %2，但有效 TPOT 为 %4 ms，中位数为 %5 ms（按中位步骤时间应为 %6 ms）</translation>
        </message>
        <message>
            <source>%1 %2 ms is %3 robust σ above the median %4 ms of %5 steps with %6</source>
            <translation>%1 %2 ms，比 %5 个具有 %6 的步的中位数 %4 ms 高 %3 个稳健 σ</translation>
        </message>
        <message>
            <source>%1 %2 ms is %3 robust σ below the median %4 ms of %5 steps with %6</source>
            <translation>%1 %2 ms，比 %5 个具有 %6 的步的中位数 %4 ms 低 %3 个稳健 σ</translation>
        </message>
        <message>
            <source>unattributed share %1 % of step_gpu_ms vs median %2 % of %3 steps with %4</source>
            <translation>未归属时间占 step_gpu_ms 的 %1 %，而 %3 个具有 %4 的步的中位数为 %2 %</translation>
        </message>
    </context>
    <context>
        <name>ChromeTraceLoader</name>
        <message>
            <source>Reading events</source>
            <translation>正在读取事件</translation>
        </message>
        <message>
            <source>%1: cannot be read (%2)</source>
            <translation>%1：无法读取（%2）</translation>
        </message>
        <message>
            <source>Decompressing</source>
            <translation>正在解压</translation>
        </message>
        <message>
            <source>%1: not loaded: %2</source>
            <translation>%1：未加载：%2</translation>
        </message>
        <message>
            <source>%1: the compressed file is damaged (%2); nothing was loaded</source>
            <translation>%1：压缩文件已损坏（%2）；未加载任何内容</translation>
        </message>
        <message>
            <source>%1: the file is empty</source>
            <translation>%1：文件为空</translation>
        </message>
        <message>
            <source>%1: malformed JSON at byte %2: %3</source>
            <translation>%1：第 %2 字节处 JSON 格式错误：%3</translation>
        </message>
        <message>
            <source>%1: JSON, but not a Chrome trace (the top-level object has no "traceEvents" array)</source>
            <translation>%1：是 JSON，但不是 Chrome trace（顶层对象没有 "traceEvents" 数组）</translation>
        </message>
        <message>
            <source>%1: not JSON: byte %2 is neither '[' nor '{' (not a Chrome trace)</source>
            <translation>%1：不是 JSON：第 %2 字节既不是 '[' 也不是 '{'（不是 Chrome trace）</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>已取消加载</translation>
        </message>
        <message>
            <source>%1: malformed JSON at byte %2: %3; nothing was loaded</source>
            <translation>%1：第 %2 字节处 JSON 格式错误：%3；未加载任何内容</translation>
        </message>
        <message>
            <source>%1: the file is malformed after the events array, at byte %2 (%3); the events were loaded</source>
            <translation>%1：事件数组之后的内容格式错误，位于第 %2 字节（%3）；事件已加载</translation>
        </message>
        <message>
            <source>%1: data after the end of the events array (byte %2) was ignored</source>
            <translation>%1：事件数组结束后的数据（第 %2 字节）已忽略</translation>
        </message>
        <message>
            <source>%1: JSON, but not a Chrome trace: none of its %2 array elements is a trace event (an object with "ph" and "ts")</source>
            <translation>%1：是 JSON，但不是 Chrome trace：其 %2 个数组元素中没有一个是 trace 事件（含 "ph" 和 "ts" 的对象）</translation>
        </message>
        <message>
            <source>Building lanes</source>
            <translation>正在构建泳道</translation>
        </message>
        <message>
            <source>%1: event arguments not kept (more than %2 files in one profile)</source>
            <translation>%1：未保留事件参数（一个性能数据中的文件超过 %2 个）</translation>
        </message>
        <message>
            <source>%1: %2 events without "ts" were skipped (%3)</source>
            <translation>%1：跳过了 %2 个缺少 "ts" 的事件（%3）</translation>
        </message>
        <message>
            <source>%1: %2 events without "ph" were skipped (%3)</source>
            <translation>%1：跳过了 %2 个缺少 "ph" 的事件（%3）</translation>
        </message>
        <message>
            <source>%1: %2 events with an unsupported phase were skipped (%3)</source>
            <translation>%1：跳过了 %2 个阶段（ph）不受支持的事件（%3）</translation>
        </message>
        <message>
            <source>%1: %2 elements of the events array are not objects and were skipped (%3)</source>
            <translation>%1：events 数组中有 %2 个元素不是对象，已跳过（%3）</translation>
        </message>
        <message>
            <source>%1: %2 slices with a negative duration were clamped to 0 (%3)</source>
            <translation>%1：%2 个时长为负的切片已截断为 0（%3）</translation>
        </message>
        <message>
            <source>%1: %2 unreadable timestamps or durations (%3)</source>
            <translation>%1：%2 个无法读取的时间戳或时长（%3）</translation>
        </message>
        <message>
            <source>%1: %2 flow events without an id were skipped (%3)</source>
            <translation>%1：跳过了 %2 个缺少 id 的 Flow 事件（%3）</translation>
        </message>
        <message>
            <source>%1: invalid UTF-8 was replaced by '?' in %2 parts of the file (%3)</source>
            <translation>%1：文件中 %2 处无效的 UTF-8 已替换为 '?'（%3）</translation>
        </message>
        <message>
            <source>%1: %2 flow events are more than can be linked; flows are not shown</source>
            <translation>%1：%2 个流事件超出了可关联的上限；不显示流连线</translation>
        </message>
        <message>
            <source>%1: rank %2 again, but from other processes than %3: another run, shown as a rank of its own</source>
            <translation>%1：又是 rank %2，但来自与 %3 不同的进程：属于另一次运行，单独显示为一个 rank</translation>
        </message>
        <message>
            <source>%1: %2 flow finishes have no flow start (the trace was probably trimmed); they are not linked</source>
            <translation>%1：%2 个 Flow 结束点没有对应的 Flow 起点（trace 可能被截断）；未建立关联</translation>
        </message>
        <message>
            <source>%1: %2 flow events are not on any slice of their thread; their links are dropped</source>
            <translation>%1：%2 个 Flow 事件不在其线程的任何切片上；其关联已丢弃</translation>
        </message>
        <message>
            <source>%1: %2 slice ends (ph E/e) have no matching begin; they are ignored</source>
            <translation>%1：%2 个切片结束（ph E/e）没有匹配的开始；已忽略</translation>
        </message>
        <message>
            <source>%1: %2 slices (ph B/b) never end; they are shown up to the end of the trace</source>
            <translation>%1：%2 个切片（ph B/b）从未结束；显示至 trace 末尾</translation>
        </message>
    </context>
    <context>
        <name>ClusterAnalysis</name>
        <message>
            <source>rank %1: shares no collective with the other ranks</source>
            <translation>rank %1：与其他 rank 没有共同的集合通信</translation>
        </message>
        <message>
            <source>rank %1: slow outlier in %2 and last to arrive in %3 of the %4 collectives it shares (%5 µs late in all); waited %6 µs for late peers, %7 µs in transfer</source>
            <translation>rank %1：在其参与的 %4 个共同集合通信中，%2 个是慢的离群者，%3 个最后到达（共迟到 %5 µs）；等待迟到的对端 %6 µs，传输 %7 µs</translation>
        </message>
        <message>
            <source>%1 of %2 matched collectives disagree in name or size between ranks; they are not used for the clock offsets</source>
            <translation>%2 个匹配的集合通信中有 %1 个在各 rank 间名称或大小不一致；它们不用于时钟偏移</translation>
        </message>
        <message>
            <source>rank %1 shares no collective with the other ranks; its clock is left unaligned</source>
            <translation>rank %1 与其他 rank 没有共同的集合通信；其时钟未对齐</translation>
        </message>
    </context>
    <context>
        <name>ClusterLayout</name>
        <message>
            <source>rank %1 has several runs: the newest, %2, is opened; %3 is not loaded</source>
            <translation>rank %1 有多次运行：打开最新的 %2；未加载 %3</translation>
        </message>
        <message>
            <source>%2 and %3 both claim rank %1; only %2 is opened (they are never merged)</source>
            <translation>%2 和 %3 都声称是 rank %1；只打开 %2（二者从不合并）</translation>
        </message>
        <message>
            <source>its rank is not known</source>
            <translation>其 rank 未知</translation>
        </message>
        <message>
            <source>not a readable rank summary</source>
            <translation>不是可读的 rank 摘要</translation>
        </message>
    </context>
    <context>
        <name>ClusterLoader</name>
        <message>
            <source>Loading ranks: %1 of %2 done, %3 of %4 MB</source>
            <translation>正在加载 rank：已完成 %1/%2，%3/%4 MB</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>已取消</translation>
        </message>
        <message>
            <source>%1: no rank in the profile</source>
            <translation>%1：性能数据中没有 rank</translation>
        </message>
        <message>
            <source>%1: no rank found</source>
            <translation>%1：未找到 rank</translation>
        </message>
    </context>
    <context>
        <name>ClusterReport</name>
        <message>
            <source>Cross-rank critical path (%1 steps; where their wall time went, largest first)</source>
            <translation>跨 rank 关键路径（%1 个步骤；墙钟时间的去向，从大到小）</translation>
        </message>
        <message>
            <source>rank %1 %2: %3 %</source>
            <translation>rank %1 %2：%3 %</translation>
        </message>
        <message>
            <source>Cluster</source>
            <translation>集群</translation>
        </message>
        <message>
            <source>ranks opened</source>
            <translation>个 rank 已打开</translation>
        </message>
        <message>
            <source>warning</source>
            <translation>警告</translation>
        </message>
        <message>
            <source>Clock offsets (µs, to the reference rank; spread = max − min of the end differences)</source>
            <translation>时钟偏移（µs，相对参考 rank；离散度 = 结束时间差的最大值 − 最小值）</translation>
        </message>
        <message>
            <source>rank</source>
            <translation>rank</translation>
        </message>
        <message>
            <source>reference</source>
            <translation>参考</translation>
        </message>
        <message>
            <source>spread</source>
            <translation>离散度</translation>
        </message>
        <message>
            <source>collectives</source>
            <translation>集合通信</translation>
        </message>
        <message>
            <source>Slow ranks (votes per collective as msprof-analyze slow_rank; lateness totals)</source>
            <translation>慢 rank（按集合通信投票，同 msprof-analyze slow_rank；迟到总量）</translation>
        </message>
    </context>
    <context>
        <name>CommBracketOverlay</name>
        <message>
            <source>exposed %1</source>
            <translation>暴露 %1</translation>
        </message>
    </context>
    <context>
        <name>CommandLine</name>
        <message>
            <source>%1: not a file on this computer (only local files and folders can be opened)</source>
            <translation>%1：不是本机上的文件（只能打开本机的文件和文件夹）</translation>
        </message>
    </context>
    <context>
        <name>Compare</name>
        <message>
            <source>class</source>
            <translation>类别</translation>
        </message>
        <message>
            <source>baseline step</source>
            <translation>基线步</translation>
        </message>
        <message>
            <source>changed step</source>
            <translation>变更步</translation>
        </message>
        <message>
            <source>baseline</source>
            <translation>基线</translation>
        </message>
        <message>
            <source>changed</source>
            <translation>变更</translation>
        </message>
        <message>
            <source>quantity</source>
            <translation>指标</translation>
        </message>
        <message>
            <source>baseline median</source>
            <translation>基线中位数</translation>
        </message>
        <message>
            <source>p10..p90</source>
            <translation>p10..p90</translation>
        </message>
        <message>
            <source>n</source>
            <translation>n</translation>
        </message>
        <message>
            <source>changed median</source>
            <translation>变更中位数</translation>
        </message>
        <message>
            <source>Δ median</source>
            <translation>Δ 中位数</translation>
        </message>
        <message>
            <source>95% interval</source>
            <translation>95% 区间</translation>
        </message>
        <message>
            <source>same</source>
            <translation>相同</translation>
        </message>
        <message>
            <source>different</source>
            <translation>不同</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>in both runs</source>
            <translation>两次运行中都有</translation>
        </message>
        <message>
            <source>in the baseline only</source>
            <translation>仅在基线中</translation>
        </message>
        <message>
            <source>in the changed run only</source>
            <translation>仅在变更运行中</translation>
        </message>
        <message>
            <source>outside the stable windows of both runs</source>
            <translation>在两次运行的稳定窗口之外</translation>
        </message>
        <message>
            <source>Baseline: %1 (%2 steps)</source>
            <translation>基线：%1（%2 步）</translation>
        </message>
        <message>
            <source>Changed:  %1 (%2 steps)</source>
            <translation>变更：%1（%2 步）</translation>
        </message>
        <message>
            <source>Configuration</source>
            <translation>配置</translation>
        </message>
        <message>
            <source>Not comparable</source>
            <translation>无法比较</translation>
        </message>
        <message>
            <source>Whole stable window (%1 baseline steps, %2 changed; * = the interval excludes 0)</source>
            <translation>整个稳定窗口（基线 %1 步，变更 %2 步；* = 区间不含 0）</translation>
        </message>
        <message>
            <source>Class %1: %2 (%3 baseline steps, %4 changed)</source>
            <translation>类别 %1：%2（基线 %3 步，变更 %4 步）</translation>
        </message>
        <message>
            <source>Matched step pairs (the median step of each class)</source>
            <translation>匹配的步对（每个类别的中位步）</translation>
        </message>
        <message>
            <source>Kernels of the whole profiles (no matched steps): %1 matched, %2 only in the baseline, %3 only in the changed run</source>
            <translation>整个 profile 的 kernel（无匹配步）：%1 个匹配，%2 个仅在基线中，%3 个仅在变更运行中</translation>
        </message>
        <message>
            <source>Kernels of pair %1 (forward_ct %2 → %3): %4 matched, %5 only in the baseline, %6 only in the changed run</source>
            <translation>步对 %1 的 kernel（forward_ct %2 → %3）：%4 个匹配，%5 个仅在基线中，%6 个仅在变更运行中</translation>
        </message>
        <message>
            <source>kernel</source>
            <translation>kernel</translation>
        </message>
        <message>
            <source>baseline µs</source>
            <translation>基线 µs</translation>
        </message>
        <message>
            <source>changed µs</source>
            <translation>变更 µs</translation>
        </message>
        <message>
            <source>Δ µs</source>
            <translation>Δ µs</translation>
        </message>
        <message>
            <source>Device tasks by category (durations; totals are sums, not time on the path)</source>
            <translation>按类别的设备任务（时长；总计为求和，不是关键路径上的时间）</translation>
        </message>
        <message>
            <source>category</source>
            <translation>类别</translation>
        </message>
        <message>
            <source>baseline median ms</source>
            <translation>基线中位数 ms</translation>
        </message>
        <message>
            <source>changed median ms</source>
            <translation>变更中位数 ms</translation>
        </message>
        <message>
            <source>baseline Σ ms</source>
            <translation>基线 Σ ms</translation>
        </message>
        <message>
            <source>changed Σ ms</source>
            <translation>变更 Σ ms</translation>
        </message>
        <message>
            <source>Code commit</source>
            <translation>代码提交</translation>
        </message>
        <message>
            <source>Checkpoint</source>
            <translation>检查点</translation>
        </message>
        <message>
            <source>Server arguments</source>
            <translation>服务参数</translation>
        </message>
        <message>
            <source>Parallel layout</source>
            <translation>并行布局</translation>
        </message>
        <message>
            <source>Concurrency</source>
            <translation>并发</translation>
        </message>
        <message>
            <source>Input / output length</source>
            <translation>输入 / 输出长度</translation>
        </message>
        <message>
            <source>DSpark config</source>
            <translation>DSpark 配置</translation>
        </message>
        <message>
            <source>Graph config</source>
            <translation>图配置</translation>
        </message>
        <message>
            <source>DeepEP mode</source>
            <translation>DeepEP 模式</translation>
        </message>
        <message>
            <source>Profiler config</source>
            <translation>Profiler 配置</translation>
        </message>
        <message>
            <source>Device</source>
            <translation>设备</translation>
        </message>
        <message>
            <source>Not a controlled experiment: %1 groups of settings differ (%2)</source>
            <translation>不是受控实验：%1 组设置不同（%2）</translation>
        </message>
        <message>
            <source>the baseline</source>
            <translation>基线</translation>
        </message>
        <message>
            <source>the changed run</source>
            <translation>变更运行</translation>
        </message>
        <message>
            <source>Step classes and record times: %1 has no DSpark step records</source>
            <translation>步类别与记录时间：%1 没有 DSpark 步记录</translation>
        </message>
        <message>
            <source>Bands, communication, pre-replay gap and critical path: %1 has no analysed step on a timeline</source>
            <translation>阶段带、通信、replay 前间隙与关键路径：%1 在时间线上没有已分析的步</translation>
        </message>
        <message>
            <source>Stable windows: %1 has none, so every step of it is compared</source>
            <translation>稳定窗口：%1 没有稳定窗口，因此比较其全部步</translation>
        </message>
        <message>
            <source>Kernels: the runs ran on different platforms (%1, %2); kernel names and stages do not correspond, so device tasks are compared by category only</source>
            <translation>Kernel：两次运行在不同平台上（%1、%2）；kernel 名称与阶段无法对应，因此设备任务只按类别比较</translation>
        </message>
        <message>
            <source>Verify tokens: no (mode, bs, verify tokens) class is in both runs, so steps are matched by (mode, bs) and the verify width is part of the change</source>
            <translation>Verify token：没有 (mode, bs, verify tokens) 类别同时出现在两次运行中，因此按 (mode, bs) 匹配步，verify 宽度视为变更的一部分</translation>
        </message>
        <message>
            <source>Step GPU</source>
            <translation>步 GPU</translation>
        </message>
        <message>
            <source>Draft</source>
            <translation>草稿</translation>
        </message>
        <message>
            <source>Target verify</source>
            <translation>目标验证</translation>
        </message>
        <message>
            <source>Unattributed</source>
            <translation>未归属</translation>
        </message>
        <message>
            <source>Step wall</source>
            <translation>步墙钟时间</translation>
        </message>
        <message>
            <source>Draft band</source>
            <translation>草稿阶段带</translation>
        </message>
        <message>
            <source>Planner band</source>
            <translation>规划器阶段带</translation>
        </message>
        <message>
            <source>Verify band</source>
            <translation>目标验证阶段带</translation>
        </message>
        <message>
            <source>Accept band</source>
            <translation>接受阶段带</translation>
        </message>
        <message>
            <source>Commit band</source>
            <translation>提交阶段带</translation>
        </message>
        <message>
            <source>Planner gap</source>
            <translation>规划器间隙</translation>
        </message>
        <message>
            <source>Host gap before next step</source>
            <translation>下一步之前的主机间隙</translation>
        </message>
        <message>
            <source>Pre-replay host gap</source>
            <translation>replay 前主机间隙</translation>
        </message>
        <message>
            <source>Communication in flight</source>
            <translation>在途通信</translation>
        </message>
        <message>
            <source>Exposed communication</source>
            <translation>暴露的通信</translation>
        </message>
        <message>
            <source>Hidden communication</source>
            <translation>被隐藏的通信</translation>
        </message>
        <message>
            <source>Critical path: draft</source>
            <translation>关键路径：draft</translation>
        </message>
        <message>
            <source>Critical path: verify compute</source>
            <translation>关键路径：verify 计算</translation>
        </message>
        <message>
            <source>Critical path: exposed communication</source>
            <translation>关键路径：暴露的通信</translation>
        </message>
        <message>
            <source>Critical path: accept / TP sync</source>
            <translation>关键路径：accept / TP 同步</translation>
        </message>
        <message>
            <source>Critical path: commit</source>
            <translation>关键路径：commit</translation>
        </message>
        <message>
            <source>Critical path: host gap</source>
            <translation>关键路径：主机间隙</translation>
        </message>
        <message>
            <source>Critical path: idle</source>
            <translation>关键路径：空闲</translation>
        </message>
        <message>
            <source>Mean commit length</source>
            <translation>平均提交长度</translation>
        </message>
        <message>
            <source>Effective TPOT</source>
            <translation>有效 TPOT</translation>
        </message>
        <message>
            <source>Committed tokens/s</source>
            <translation>提交 token/s</translation>
        </message>
    </context>
    <context>
        <name>ComparisonController</name>
        <message>
            <source>an Ascend NPU run</source>
            <translation>昇腾 NPU 运行</translation>
        </message>
        <message>
            <source>a GPU (Kineto) run</source>
            <translation>GPU（Kineto）运行</translation>
        </message>
        <message>
            <source>step records without a timeline</source>
            <translation>没有时间线的步记录</translation>
        </message>
        <message>
            <source>no cache folder is available for the demo pair</source>
            <translation>没有可用于演示对的缓存文件夹</translation>
        </message>
        <message>
            <source>%1: cannot create the demo folder (%2)</source>
            <translation>%1：无法创建演示文件夹（%2）</translation>
        </message>
    </context>
    <context>
        <name>ComparisonFigure</name>
        <message>
            <source>%1: %2 → %3 (not in both runs)</source>
            <translation>%1：%2 → %3（并非两次运行都有）</translation>
        </message>
        <message>
            <source>Comparison: baseline %1 forward_ct %2  vs  changed %3 forward_ct %4</source>
            <translation>比较：基线 %1 forward_ct %2  对比  变更 %3 forward_ct %4</translation>
        </message>
        <message>
            <source>step wall</source>
            <translation>步墙钟时间</translation>
        </message>
        <message>
            <source>effective TPOT</source>
            <translation>有效 TPOT</translation>
        </message>
        <message>
            <source>mean commit length</source>
            <translation>平均提交长度</translation>
        </message>
        <message>
            <source>exposed communication</source>
            <translation>暴露的通信</translation>
        </message>
        <message>
            <source>critical path — %1</source>
            <translation>关键路径 — %1</translation>
        </message>
    </context>
    <context>
        <name>ComparisonLoadTask</name>
        <message>
            <source>Preparing…</source>
            <translation>正在准备…</translation>
        </message>
        <message>
            <source>Baseline: %1</source>
            <translation>基线：%1</translation>
        </message>
        <message>
            <source>Changed: %1</source>
            <translation>变更：%1</translation>
        </message>
        <message>
            <source>%1: cannot be opened</source>
            <translation>%1：无法打开</translation>
        </message>
        <message>
            <source>baseline: %1</source>
            <translation>基线：%1</translation>
        </message>
        <message>
            <source>changed run: %1</source>
            <translation>变更运行：%1</translation>
        </message>
    </context>
    <context>
        <name>ComparisonPanels</name>
        <message>
            <source>same</source>
            <translation>相同</translation>
        </message>
        <message>
            <source>different</source>
            <translation>不同</translation>
        </message>
        <message>
            <source>unknown</source>
            <translation>未知</translation>
        </message>
        <message>
            <source>in both runs</source>
            <translation>两次运行都有</translation>
        </message>
        <message>
            <source>baseline only</source>
            <translation>仅基线</translation>
        </message>
        <message>
            <source>changed run only</source>
            <translation>仅变更运行</translation>
        </message>
        <message>
            <source>outside both stable windows</source>
            <translation>在两个稳定窗口之外</translation>
        </message>
        <message>
            <source>in both</source>
            <translation>两者都有</translation>
        </message>
    </context>
    <context>
        <name>CriticalPath</name>
        <message>
            <source>Draft</source>
            <translation>草稿</translation>
        </message>
        <message>
            <source>Verify compute</source>
            <translation>验证计算</translation>
        </message>
        <message>
            <source>Exposed communication</source>
            <translation>暴露通信</translation>
        </message>
        <message>
            <source>Accept / TP sync</source>
            <translation>接受 / TP 同步</translation>
        </message>
        <message>
            <source>Commit</source>
            <translation>提交</translation>
        </message>
        <message>
            <source>Host gap (launch-bound)</source>
            <translation>主机间隙（受限于下发）</translation>
        </message>
        <message>
            <source>Idle</source>
            <translation>空闲</translation>
        </message>
    </context>
    <context>
        <name>DemoCache</name>
        <message>
            <source>no cache folder is available for the demo profile</source>
            <translation>没有可用于演示性能数据的缓存文件夹</translation>
        </message>
        <message>
            <source>%1: cannot create the demo folder (%2)</source>
            <translation>%1：无法创建演示文件夹（%2）</translation>
        </message>
    </context>
    <context>
        <name>DemoDbWriter</name>
        <message>
            <source>%1: cannot write the demo database (%2: %3)</source>
            <translation>%1：无法写入演示数据库（%2：%3）</translation>
        </message>
    </context>
    <context>
        <name>DemoTraceWriter</name>
        <message>
            <source>%1: cannot write the demo trace (%2)</source>
            <translation>%1：无法写入演示 trace（%2）</translation>
        </message>
    </context>
    <context>
        <name>DemoWriter</name>
        <message>
            <source>%1: cannot read back the demo's own files</source>
            <translation>%1：无法读回演示自身写出的文件</translation>
        </message>
        <message>
            <source>%1: cannot write the file</source>
            <translation>%1：无法写入文件</translation>
        </message>
        <message>
            <source>no output folder given</source>
            <translation>未指定输出文件夹</translation>
        </message>
        <message>
            <source>%1: exists and is not a folder</source>
            <translation>%1：已存在且不是文件夹</translation>
        </message>
        <message>
            <source>%1: cannot read the folder (%2)</source>
            <translation>%1：无法读取文件夹（%2）</translation>
        </message>
        <message>
            <source>%1: the folder is not empty (the demo is written into a new or empty folder)</source>
            <translation>%1：文件夹非空（演示数据只会写入新建的或空的文件夹）</translation>
        </message>
        <message>
            <source>%1: cannot create the folder (%2)</source>
            <translation>%1：无法创建文件夹（%2）</translation>
        </message>
        <message>
            <source>%1: cancelled</source>
            <translation>%1：已取消</translation>
        </message>
        <message>
            <source>%1: cannot write the database (%2)</source>
            <translation>%1：无法写入数据库（%2）</translation>
        </message>
        <message>
            <source>%1: the output folder exists and is not empty</source>
            <translation>%1：输出文件夹已存在且不为空</translation>
        </message>
    </context>
    <context>
        <name>EventSearch</name>
        <message>
            <source>invalid regular expression: %1</source>
            <translation>无效的正则表达式：%1</translation>
        </message>
    </context>
    <context>
        <name>FileRecognition</name>
        <message>
            <source>%1: a communication summary (communication.json), not a timeline; not loaded</source>
            <translation>%1：通信汇总（communication.json），不是时间线；未加载</translation>
        </message>
        <message>
            <source>%1: JSON, but not profiler output (no traceEvents, internal_states or DSpark records; top-level keys: %2)</source>
            <translation>%1：是 JSON，但不是性能数据输出（没有 traceEvents、internal_states 或 DSpark 记录；顶层键：%2）</translation>
        </message>
        <message>
            <source>%1: a JSON array, but not trace events (its first element has no "ph")</source>
            <translation>%1：是 JSON 数组，但不是 trace 事件（其第一个元素没有 "ph"）</translation>
        </message>
        <message>
            <source>%1: a torch_npu analysis database (step and communication summaries), not a timeline; not loaded</source>
            <translation>%1：torch_npu 分析数据库（步与通信汇总），不是时间线；未加载</translation>
        </message>
        <message numerus="yes">
            <source>%1: an SQLite database, but not profiler output (no profiler tables: none of TASK, CANN_API, PYTORCH_API, COMMUNICATION_OP, MSTX_EVENTS; the database has %n table(s))</source>
            <translation>
                <numerusform>%1：是 SQLite 数据库，但不是性能数据输出（没有性能数据表：TASK、CANN_API、PYTORCH_API、COMMUNICATION_OP、MSTX_EVENTS 均不存在；数据库中有 %n 张表）</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: gzip-compressed DSpark or profiler JSON other than a trace is not read; decompress it first</source>
            <translation>%1：除 trace 以外的 gzip 压缩 DSpark 或性能数据 JSON 不会被读取；请先解压</translation>
        </message>
        <message>
            <source>%1: gzip-compressed, but not a JSON trace</source>
            <translation>%1：是 gzip 压缩文件，但不是 JSON trace</translation>
        </message>
        <message>
            <source>%1: a profiler summary table (CSV), not a timeline; not loaded</source>
            <translation>%1：性能数据汇总表（CSV），不是时间线；未加载</translation>
        </message>
        <message>
            <source>%1: not a profiler file</source>
            <translation>%1：不是性能数据文件</translation>
        </message>
    </context>
    <context>
        <name>Gzip</name>
        <message>
            <source>not gzip data</source>
            <translation>不是 gzip 数据</translation>
        </message>
        <message>
            <source>out of memory</source>
            <translation>内存不足</translation>
        </message>
        <message>
            <source>zlib initialisation failed</source>
            <translation>zlib 初始化失败</translation>
        </message>
        <message>
            <source>unexpected data after the gzip stream at compressed byte %1</source>
            <translation>gzip 数据流之后有多余数据（压缩数据第 %1 字节处）</translation>
        </message>
        <message>
            <source>truncated gzip data (the stream ends at compressed byte %1 before its end marker)</source>
            <translation>gzip 数据不完整（数据流在压缩数据第 %1 字节处结束，缺少结束标记）</translation>
        </message>
        <message>
            <source>corrupt gzip data at compressed byte %1</source>
            <translation>gzip 数据在压缩数据第 %1 字节处损坏</translation>
        </message>
        <message>
            <source>it inflates to more than %1 times its size (%2 MB), like a gzip bomb</source>
            <translation>解压后超过其大小的 %1 倍（%2 MB），疑似 gzip 炸弹</translation>
        </message>
        <message>
            <source>it inflates to more than %1 MB</source>
            <translation>解压后超过 %1 MB</translation>
        </message>
        <message>
            <source>truncated gzip data</source>
            <translation>gzip 数据不完整</translation>
        </message>
    </context>
    <context>
        <name>ImageExport</name>
        <message>
            <source>%1: the image size %2×%3 is empty</source>
            <translation>%1：图像尺寸 %2×%3 为空</translation>
        </message>
        <message>
            <source>%1: the scale factor %2 is outside 0–8</source>
            <translation>%1：缩放倍数 %2 超出 0–8 范围</translation>
        </message>
        <message>
            <source>%1: an image of %2×%3 pixels is too large (at most %4 per side)</source>
            <translation>%1：%2×%3 像素的图像过大（每边最多 %4）</translation>
        </message>
        <message>
            <source>%1: could not encode the PNG image</source>
            <translation>%1：无法编码 PNG 图像</translation>
        </message>
        <message>
            <source>%1: could not start the SVG document</source>
            <translation>%1：无法创建 SVG 文档</translation>
        </message>
        <message>
            <source>%1: could not start the PDF document</source>
            <translation>%1：无法创建 PDF 文档</translation>
        </message>
        <message>
            <source>%1: cannot write (%2)</source>
            <translation>%1：无法写入（%2）</translation>
        </message>
        <message>
            <source>%1: writing failed (%2)</source>
            <translation>%1：写入失败（%2）</translation>
        </message>
    </context>
    <context>
        <name>KernelSummary</name>
        <message>
            <source>AI Core</source>
            <translation>AI Core</translation>
        </message>
        <message>
            <source>AI Vector</source>
            <translation>AI 向量核</translation>
        </message>
        <message>
            <source>AI CPU</source>
            <translation>AI CPU</translation>
        </message>
        <message>
            <source>communication</source>
            <translation>通信</translation>
        </message>
        <message>
            <source>GPU kernel</source>
            <translation>GPU 算子</translation>
        </message>
        <message>
            <source>kernel</source>
            <translation>算子</translation>
        </message>
    </context>
    <context>
        <name>KernelsReport</name>
        <message>
            <source>Core</source>
            <translation>核心</translation>
        </message>
        <message>
            <source>Stage</source>
            <translation>阶段</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>次数</translation>
        </message>
        <message>
            <source>Total (ms)</source>
            <translation>总计 (ms)</translation>
        </message>
        <message>
            <source>Mean (µs)</source>
            <translation>平均 (µs)</translation>
        </message>
        <message>
            <source>p50 (µs)</source>
            <translation>p50 (µs)</translation>
        </message>
        <message>
            <source>p90 (µs)</source>
            <translation>p90 (µs)</translation>
        </message>
        <message>
            <source>Max (µs)</source>
            <translation>最大 (µs)</translation>
        </message>
        <message>
            <source>Share</source>
            <translation>占比</translation>
        </message>
        <message>
            <source>Kernel</source>
            <translation>算子</translation>
        </message>
        <message>
            <source>source: %1 (the timeline has no device kernels)</source>
            <translation>来源：%1（时间线上没有设备算子）</translation>
        </message>
        <message>
            <source>source: the timeline's device tasks</source>
            <translation>来源：时间线上的设备任务</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Wall (ms)</source>
            <translation>墙钟 (ms)</translation>
        </message>
        <message>
            <source>Device busy (ms)</source>
            <translation>设备忙碌 (ms)</translation>
        </message>
        <message>
            <source>Computing (ms)</source>
            <translation>计算 (ms)</translation>
        </message>
        <message>
            <source>Comm. not overlapped (ms)</source>
            <translation>未重叠通信 (ms)</translation>
        </message>
        <message>
            <source>Free (ms)</source>
            <translation>空闲 (ms)</translation>
        </message>
        <message>
            <source>Path compute / comm / host / idle (ms)</source>
            <translation>路径 计算 / 通信 / 主机 / 空闲 (ms)</translation>
        </message>
        <message>
            <source>Top kernel</source>
            <translation>最耗时算子</translation>
        </message>
        <message>
            <source>Anomaly</source>
            <translation>异常</translation>
        </message>
    </context>
    <context>
        <name>KindNames</name>
        <message>
            <source>Device task</source>
            <translation>设备任务</translation>
        </message>
        <message>
            <source>Kernel</source>
            <translation>算子</translation>
        </message>
        <message>
            <source>Collective communication</source>
            <translation>集合通信</translation>
        </message>
        <message>
            <source>Communication sub-task</source>
            <translation>通信子任务</translation>
        </message>
        <message>
            <source>Event record</source>
            <translation>事件记录</translation>
        </message>
        <message>
            <source>Event wait</source>
            <translation>事件等待</translation>
        </message>
        <message>
            <source>Memory copy</source>
            <translation>内存拷贝</translation>
        </message>
        <message>
            <source>CANN/host API call</source>
            <translation>CANN/主机 API 调用</translation>
        </message>
        <message>
            <source>PyTorch/Python op</source>
            <translation>PyTorch/Python 算子</translation>
        </message>
        <message>
            <source>Annotated range</source>
            <translation>标注区间</translation>
        </message>
        <message>
            <source>Instant marker</source>
            <translation>瞬时标记</translation>
        </message>
        <message>
            <source>Overlap analysis span</source>
            <translation>重叠分析区段</translation>
        </message>
        <message>
            <source>Counter sample</source>
            <translation>计数器采样</translation>
        </message>
        <message>
            <source>Host thread</source>
            <translation>主机线程</translation>
        </message>
        <message>
            <source>NPU stream</source>
            <translation>NPU 流</translation>
        </message>
        <message>
            <source>GPU stream</source>
            <translation>GPU 流</translation>
        </message>
        <message>
            <source>Communication</source>
            <translation>通信</translation>
        </message>
        <message>
            <source>Overlap analysis</source>
            <translation>重叠分析</translation>
        </message>
        <message>
            <source>Counter</source>
            <translation>计数器</translation>
        </message>
    </context>
    <context>
        <name>LaneLayout</name>
        <message>
            <source> · device %1</source>
            <translation> · 设备 %1</translation>
        </message>
        <message>
            <source>rank %1</source>
            <translation>rank %1</translation>
        </message>
        <message>
            <source>(unnamed process)</source>
            <translation>（未命名进程）</translation>
        </message>
        <message>
            <source>(unnamed lane)</source>
            <translation>（未命名泳道）</translation>
        </message>
    </context>
    <context>
        <name>MappedFile</name>
        <message>
            <source>not a regular file</source>
            <translation>不是普通文件</translation>
        </message>
    </context>
    <context>
        <name>MeasureOverlay</name>
        <message>
            <source>Δ %1</source>
            <translation>Δ %1</translation>
        </message>
    </context>
    <context>
        <name>MsprofDbLoader</name>
        <message>
            <source>%1: cannot be opened as a database (%2)</source>
            <translation>%1：无法作为数据库打开（%2）</translation>
        </message>
        <message>
            <source>Counting rows</source>
            <translation>正在统计行数</translation>
        </message>
        <message>
            <source>Reading strings</source>
            <translation>正在读取字符串</translation>
        </message>
        <message>
            <source>%1: cannot be read (%2)</source>
            <translation>%1：无法读取（%2）</translation>
        </message>
        <message>
            <source>%1: the file is empty, not an SQLite database</source>
            <translation>%1：文件为空，不是 SQLite 数据库</translation>
        </message>
        <message>
            <source>%1: not an SQLite database (the file does not start with the SQLite header)</source>
            <translation>%1：不是 SQLite 数据库（文件不以 SQLite 文件头开始）</translation>
        </message>
        <message>
            <source>%1: truncated SQLite database (%2 bytes, shorter than its 100-byte header)</source>
            <translation>%1：SQLite 数据库被截断（%2 字节，短于 100 字节的文件头）</translation>
        </message>
        <message>
            <source>%1: truncated SQLite database (%2 bytes of the %3 its header declares)</source>
            <translation>%1：SQLite 数据库被截断（只有 %2 字节，文件头声明为 %3 字节）</translation>
        </message>
        <message>
            <source>%1: a write-ahead log (%2) lies next to the database; changes not yet checkpointed into the database are not shown (the profile is opened read-only)</source>
            <translation>%1：数据库旁存在预写日志（%2）；尚未通过检查点写入数据库的更改不会显示（性能数据以只读方式打开）</translation>
        </message>
        <message>
            <source>the database is corrupt</source>
            <translation>数据库已损坏</translation>
        </message>
        <message>
            <source>the database cannot be read</source>
            <translation>无法读取数据库</translation>
        </message>
        <message>
            <source>%1: %2 (%3)</source>
            <translation>%1：%2（%3）</translation>
        </message>
        <message numerus="yes">
            <source>%1: no profiler tables (none of TASK, CANN_API, PYTORCH_API, COMMUNICATION_OP, MSTX_EVENTS; the database has %n table(s)) — not msprof / torch_npu profiler output</source>
            <translation>
                <numerusform>%1：没有性能数据表（TASK、CANN_API、PYTORCH_API、COMMUNICATION_OP、MSTX_EVENTS 均不存在；数据库共有 %n 个表）— 不是 msprof / torch_npu profiler 的输出</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: table %2 lacks its startNs/endNs columns; skipped</source>
            <translation>%1：表 %2 缺少 startNs/endNs 列；已跳过</translation>
        </message>
        <message>
            <source>%1: the database is truncated or corrupt (reading table %2: %3)</source>
            <translation>%1：数据库被截断或已损坏（读取表 %2 时：%3）</translation>
        </message>
        <message>
            <source>%1: cannot read table %2 (%3)</source>
            <translation>%1：无法读取表 %2（%3）</translation>
        </message>
        <message>
            <source>%1: %2 holds text where numbers belong (%3, e.g. "%4"); those values are read as 0</source>
            <translation>%1：%2 的数值列中含有文本（%3，例如“%4”）；这些值按 0 读取</translation>
        </message>
        <message>
            <source>%1: no STRING_IDS table; names are shown as string ids</source>
            <translation>%1：没有 STRING_IDS 表；名称将显示为字符串 ID</translation>
        </message>
        <message>
            <source>Reading CANN API calls</source>
            <translation>正在读取 CANN API 调用</translation>
        </message>
        <message>
            <source>Reading PyTorch ops</source>
            <translation>正在读取 PyTorch 算子</translation>
        </message>
        <message>
            <source>Reading MSTX ranges</source>
            <translation>正在读取 MSTX 区间</translation>
        </message>
        <message>
            <source>Reading communication ops</source>
            <translation>正在读取通信算子</translation>
        </message>
        <message>
            <source>%1: table %2 lacks column %3; skipped</source>
            <translation>%1：表 %2 缺少列 %3；已跳过</translation>
        </message>
        <message>
            <source>Reading %1</source>
            <translation>正在读取 %1</translation>
        </message>
        <message>
            <source>Reading device tasks</source>
            <translation>正在读取设备任务</translation>
        </message>
        <message numerus="yes">
            <source>%1: %n string id(s) point nowhere in STRING_IDS (e.g. %2); shown as "&lt;unknown string N&gt;"</source>
            <translation>
                <numerusform>%1：%n 个字符串 ID 在 STRING_IDS 中不存在（例如 %2）；显示为 "&lt;unknown string N&gt;"</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n row(s) end before they start (e.g. %2); drawn with zero duration</source>
            <translation>
                <numerusform>%1：%n 行的结束时间早于开始时间（例如 %2）；按零时长绘制</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: more than %2 rows share a connection id (e.g. %3); %n link(s) past them are not drawn</source>
            <translation>
                <numerusform>%1：超过 %2 行共用同一个连接 ID（例如 %3）；其余 %n 条关联未绘制</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n row(s) last longer than the time range can hold (e.g. %2); drawn with zero duration</source>
            <translation>
                <numerusform>%1：%n 行的时长超出时间范围所能表示的值（例如 %2）；按零时长绘制</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%1: %n communication sub-task(s) refer to an HCCL op missing from COMMUNICATION_OP (e.g. opId %2); they are not linked to an op</source>
            <translation>
                <numerusform>%1：%n 个通信子任务引用了 COMMUNICATION_OP 中不存在的 HCCL 算子（例如 opId %2）；它们不会关联到算子</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>PlainSteps</name>
        <message>
            <source>no steps</source>
            <translation>没有步</translation>
        </message>
        <message>
            <source>ProfilerStep#N spans</source>
            <translation>ProfilerStep#N 区间</translation>
        </message>
        <message>
            <source>the profiler's STEP_TIME steps</source>
            <translation>性能采集工具的 STEP_TIME 步</translation>
        </message>
        <message>
            <source>scheduler iterations (scheduler.run_batch / step[...] spans)</source>
            <translation>调度器迭代（scheduler.run_batch / step[...] 区间）</translation>
        </message>
        <message>
            <source>wall %1 ms is %2 robust σ %3 the median %4 ms of %5 steps</source>
            <translation>墙钟 %1 ms 比 %5 个步的中位数 %4 ms %3 %2 个稳健 σ</translation>
        </message>
        <message>
            <source>above</source>
            <translation>高出</translation>
        </message>
        <message>
            <source>below</source>
            <translation>低</translation>
        </message>
    </context>
    <context>
        <name>Profile</name>
        <message numerus="yes">
            <source>%n event(s) have times beyond 146 years from the epoch; held at that limit</source>
            <translation>
                <numerusform>%n 个事件的时间距纪元超过 146 年；已限制在该界限</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>ProfileLoadTask</name>
        <message>
            <source>Preparing…</source>
            <translation>正在准备…</translation>
        </message>
    </context>
    <context>
        <name>ProfileLoader</name>
        <message>
            <source>%1: cannot be read</source>
            <translation>%1：无法读取</translation>
        </message>
        <message>
            <source>%1: JSON nested deeper than %2 levels; not loaded</source>
            <translation>%1：JSON 嵌套超过 %2 层；未加载</translation>
        </message>
        <message>
            <source>%1: not a JSON object</source>
            <translation>%1：不是 JSON 对象</translation>
        </message>
        <message>
            <source>%1: not enough memory to load this file; nothing of it was loaded</source>
            <translation>%1：内存不足，无法加载此文件；该文件的内容均未加载</translation>
        </message>
        <message>
            <source>%1: cannot be loaded (%2); nothing of it was loaded</source>
            <translation>%1：无法加载（%2）；该文件的内容均未加载</translation>
        </message>
        <message>
            <source>Scanning %1</source>
            <translation>正在扫描 %1</translation>
        </message>
        <message>
            <source>%1: folders deeper than %2 levels were not scanned</source>
            <translation>%1：深于 %2 层的文件夹未扫描</translation>
        </message>
        <message>
            <source>%1: the scan stopped after %2 files; the rest were not looked at</source>
            <translation>%1：扫描在 %2 个文件后停止；其余文件未查看</translation>
        </message>
        <message>
            <source>%1: the same trace as %2 (same rank and content); loaded once</source>
            <translation>%1：与 %2 是同一 trace（rank 与内容相同）；只加载一次</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>已取消加载</translation>
        </message>
        <message>
            <source>Loading %1</source>
            <translation>正在加载 %1</translation>
        </message>
        <message>
            <source>%1: no profiler data could be loaded</source>
            <translation>%1：无法加载任何性能数据</translation>
        </message>
        <message>
            <source>Indexing events</source>
            <translation>正在索引事件</translation>
        </message>
        <message>
            <source>%1: not enough memory to index the profile</source>
            <translation>%1：内存不足，无法为性能数据建立索引</translation>
        </message>
        <message>
            <source>%1: the profile holds no timed events (only metadata)</source>
            <translation>%1：该性能数据不含带时间的事件（仅有元数据）</translation>
        </message>
        <message>
            <source>Done</source>
            <translation>完成</translation>
        </message>
    </context>
    <context>
        <name>ProfileScanner</name>
        <message>
            <source>%1: no such file or folder</source>
            <translation>%1：文件或文件夹不存在</translation>
        </message>
        <message>
            <source>%1: cannot read the folder (%2)</source>
            <translation>%1：无法读取文件夹（%2）</translation>
        </message>
        <message>
            <source>%1: cannot read the folder (%2); skipped</source>
            <translation>%1：无法读取该文件夹（%2）；已跳过</translation>
        </message>
        <message>
            <source>%1: not a recognised profiler file (expected a msprof / torch_npu .db, a trace JSON or DSpark step records)</source>
            <translation>%1：不是可识别的性能数据文件（应为 msprof / torch_npu 的 .db、trace JSON 或 DSpark 步记录）</translation>
        </message>
        <message>
            <source>same content as %1; loaded once</source>
            <translation>与 %1 内容相同；只加载一次</translation>
        </message>
        <message>
            <source>%1: no profiler output found (no msprof / torch_npu database, trace JSON or DSpark step records)</source>
            <translation>%1：未找到性能数据输出（没有 msprof / torch_npu 数据库、trace JSON 或 DSpark 步记录）</translation>
        </message>
        <message>
            <source>; the scan stopped after %1 files</source>
            <translation>；扫描在 %1 个文件后停止</translation>
        </message>
        <message>
            <source>; folders deeper than %1 levels were not scanned</source>
            <translation>；深于 %1 层的文件夹未扫描</translation>
        </message>
        <message>
            <source>same run as %1; not loaded</source>
            <translation>与 %1 属于同一次运行；未加载</translation>
        </message>
    </context>
    <context>
        <name>ProfilerCsv</name>
        <message>
            <source>%1: cannot be read (%2)</source>
            <translation>%1：无法读取（%2）</translation>
        </message>
        <message>
            <source>%1: empty file</source>
            <translation>%1：空文件</translation>
        </message>
        <message>
            <source>%1: no "%2" column in the header</source>
            <translation>%1：表头中没有“%2”列</translation>
        </message>
        <message>
            <source>%1: line %2: start or duration is not a number</source>
            <translation>%1：第 %2 行：开始时间或时长不是数字</translation>
        </message>
        <message>
            <source>%1: line %2: a figure is not a number</source>
            <translation>%1：第 %2 行：某个数值不是数字</translation>
        </message>
    </context>
    <context>
        <name>RangeStats</name>
        <message>
            <source>Device tasks</source>
            <translation>设备任务</translation>
        </message>
        <message>
            <source>Host calls</source>
            <translation>主机调用</translation>
        </message>
        <message>
            <source>Communication</source>
            <translation>通信</translation>
        </message>
        <message>
            <source>Other</source>
            <translation>其他</translation>
        </message>
    </context>
    <context>
        <name>RankSummary</name>
        <message>
            <source>%1: not a rank summary (%2)</source>
            <translation>%1：不是 rank 摘要（%2）</translation>
        </message>
        <message>
            <source>%1: cannot read the file</source>
            <translation>%1：无法读取该文件</translation>
        </message>
        <message>
            <source>invalid JSON</source>
            <translation>无效的 JSON</translation>
        </message>
        <message>
            <source>no "format": "%1"</source>
            <translation>没有 "format": "%1"</translation>
        </message>
        <message>
            <source>%1: summary version %2, this build reads version %3</source>
            <translation>%1：摘要版本 %2，本程序读取版本 %3</translation>
        </message>
    </context>
    <context>
        <name>ReportContent</name>
        <message>
            <source>rank %1</source>
            <translation>rank %1</translation>
        </message>
        <message>
            <source>forward_ct %1</source>
            <translation>forward_ct %1</translation>
        </message>
        <message>
            <source>bs %1</source>
            <translation>bs %1</translation>
        </message>
        <message>
            <source>verify tokens %1</source>
            <translation>验证 token 数 %1</translation>
        </message>
        <message>
            <source>step wall %1</source>
            <translation>步墙钟时间 %1</translation>
        </message>
        <message>
            <source>effective TPOT %1</source>
            <translation>有效 TPOT %1</translation>
        </message>
        <message>
            <source>record: step GPU %1</source>
            <translation>记录：步 GPU %1</translation>
        </message>
        <message>
            <source>draft GPU %1</source>
            <translation>草稿 GPU %1</translation>
        </message>
        <message>
            <source>verify GPU %1</source>
            <translation>验证 GPU %1</translation>
        </message>
        <message>
            <source>out of segment %1</source>
            <translation>段外 %1</translation>
        </message>
        <message>
            <source>mean commit length %1</source>
            <translation>平均提交长度 %1</translation>
        </message>
        <message>
            <source>critical path: %1</source>
            <translation>关键路径：%1</translation>
        </message>
        <message numerus="yes">
            <source>communication: %1 in flight, %2 exposed (%n operation(s))</source>
            <translation>
                <numerusform>通信：进行中 %1，暴露 %2（%n 个通信算子）</numerusform>
            </translation>
        </message>
        <message>
            <source>pre-replay host gap %1</source>
            <translation>回放前主机间隙 %1</translation>
        </message>
        <message>
            <source>host gap before next step %1</source>
            <translation>下一步前的主机间隙 %1</translation>
        </message>
        <message>
            <source>Anomaly: %1</source>
            <translation>异常：%1</translation>
        </message>
        <message numerus="yes">
            <source>%n rank(s)</source>
            <translation>
                <numerusform>%n 个 rank</numerusform>
            </translation>
        </message>
        <message>
            <source>the whole profile (%1)</source>
            <translation>整个性能数据（%1）</translation>
        </message>
        <message>
            <source>%1 to %2 after the profile start (%3)</source>
            <translation>自性能数据起点后 %1 至 %2（%3）</translation>
        </message>
        <message>
            <source>Timeline of %1</source>
            <translation>时间线：%1</translation>
        </message>
        <message>
            <source>host</source>
            <translation>主机</translation>
        </message>
        <message>
            <source>stream %1</source>
            <translation>流 %1</translation>
        </message>
        <message>
            <source>Exposed communication, %1</source>
            <translation>暴露的通信，%1</translation>
        </message>
        <message>
            <source>%1, %2 % of the step</source>
            <translation>%1，占该步 %2 %</translation>
        </message>
        <message>
            <source>Critical path by category</source>
            <translation>关键路径（按类别）</translation>
        </message>
        <message>
            <source>%1 = the step wall</source>
            <translation>%1 = 步墙钟时间</translation>
        </message>
        <message>
            <source>Planner gap</source>
            <translation>规划器间隙</translation>
        </message>
        <message>
            <source>Host gap before next step</source>
            <translation>下一步前的主机间隙</translation>
        </message>
        <message>
            <source>Device idle before graph replay</source>
            <translation>图回放前的设备空闲</translation>
        </message>
        <message>
            <source>Communication in flight (issue → wait)</source>
            <translation>进行中的通信（发起 → 等待）</translation>
        </message>
        <message>
            <source>Exposed: the consumer waited</source>
            <translation>暴露：消费方发生了等待</translation>
        </message>
        <message>
            <source>Critical path</source>
            <translation>关键路径</translation>
        </message>
    </context>
    <context>
        <name>ReportPainter</name>
        <message>
            <source>Legend:</source>
            <translation>图例：</translation>
        </message>
    </context>
    <context>
        <name>StageBandOverlay</name>
        <message>
            <source>Planner gap %1</source>
            <translation>规划器间隙 %1</translation>
        </message>
        <message>
            <source>Host gap %1</source>
            <translation>主机间隙 %1</translation>
        </message>
        <message>
            <source>Pre-replay gap %1</source>
            <translation>回放前间隙 %1</translation>
        </message>
    </context>
    <context>
        <name>StageBands</name>
        <message>
            <source>Other</source>
            <translation>其他</translation>
        </message>
        <message>
            <source>Step start</source>
            <translation>步开始</translation>
        </message>
        <message>
            <source>Draft</source>
            <translation>草稿</translation>
        </message>
        <message>
            <source>Planner</source>
            <translation>规划器</translation>
        </message>
        <message>
            <source>Target Verify</source>
            <translation>目标验证</translation>
        </message>
        <message>
            <source>Accept / Finalize</source>
            <translation>接受 / 收尾</translation>
        </message>
        <message>
            <source>Commit</source>
            <translation>提交</translation>
        </message>
        <message>
            <source>Publish</source>
            <translation>发布</translation>
        </message>
    </context>
    <context>
        <name>StepAlignment</name>
        <message>
            <source>the trace step is %1; only decode steps have records</source>
            <translation>trace 中该步为 %1；只有 decode 步才有记录</translation>
        </message>
        <message>
            <source>bs=%1 in the trace, %2 in the record</source>
            <translation>trace 中 bs=%1，记录中为 %2</translation>
        </message>
        <message>
            <source>g_sq=%1 in the trace, verify tokens %2 in the record</source>
            <translation>trace 中 g_sq=%1，记录中验证 token 数为 %2</translation>
        </message>
        <message>
            <source>neither bs nor token counts to compare</source>
            <translation>bs 和 token 数均无可比较</translation>
        </message>
        <message>
            <source>the trace step has no step[...] forward span to compare with</source>
            <translation>trace 中该步没有可比较的 step[...] 前向区间</translation>
        </message>
        <message>
            <source>fallback spans carry no bs or token counts, and the record no step time</source>
            <translation>后备区间不含 bs 或 token 数，记录也没有步时间</translation>
        </message>
        <message>
            <source>the trace step lasts %1 ms, the record's step %2 ms</source>
            <translation>trace 中该步持续 %1 ms，记录中为 %2 ms</translation>
        </message>
        <message>
            <source>The step records do not match this profile: %1 of %2 compared steps agree (%3 %), below the %4 % needed</source>
            <translation>步记录与此性能数据不匹配：比较的 %2 步中有 %1 步一致（%3 %），低于所需的 %4 %</translation>
        </message>
        <message>
            <source>The step records cannot be checked against this profile (no step of the trace could be compared with a record)</source>
            <translation>无法用此性能数据核对步记录（trace 中没有任何一步能与记录比较）</translation>
        </message>
        <message>
            <source>not matched to this profile</source>
            <translation>与此性能数据不匹配</translation>
        </message>
        <message>
            <source>The trace has no scheduler.run_batch, step[...], STEP_TIME or ProfilerStep spans: the records cannot be placed on the timeline</source>
            <translation>trace 中没有 scheduler.run_batch、step[...]、STEP_TIME 或 ProfilerStep 区间：无法将记录放置到时间线上</translation>
        </message>
        <message>
            <source>No scheduler.run_batch or step[...] spans in the trace: aligned by order to STEP_TIME spans, one per scheduler step assumed; bs and token counts cannot be checked</source>
            <translation>trace 中没有 scheduler.run_batch 或 step[...] 区间：已按顺序对齐到 STEP_TIME 区间（假定每个调度器步对应一个区间）；无法校验 bs 和 token 数</translation>
        </message>
        <message>
            <source>No scheduler.run_batch or step[...] spans in the trace: aligned by order to ProfilerStep#N spans, one per scheduler step assumed; bs and token counts cannot be checked</source>
            <translation>trace 中没有 scheduler.run_batch 或 step[...] 区间：已按顺序对齐到 ProfilerStep#N 区间（假定每个调度器步对应一个区间）；无法校验 bs 和 token 数</translation>
        </message>
        <message numerus="yes">
            <source>%n record(s) have a forward_ct beyond ±2^40 and are not aligned</source>
            <translation>
                <numerusform>%n 条记录的 forward_ct 超出 ±2^40，未参与对齐</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>rank %1: %n other placement(s) of the trace fit the records equally well; the earliest is used</source>
            <translation>
                <numerusform>rank %1：trace 还有 %n 种其他放置方式与记录同样吻合；采用最早的一种</numerusform>
            </translation>
        </message>
        <message>
            <source>rank %1: the trace's first step is placed at forward_ct %2, start_step is %3</source>
            <translation>rank %1：trace 的第一步被放置在 forward_ct %2，而 start_step 为 %3</translation>
        </message>
        <message>
            <source>rank %1: no trace step for forward_ct %2–%3 (spans missing from the trace?)</source>
            <translation>rank %1：forward_ct %2–%3 没有对应的 trace 步（trace 中缺少区间？）</translation>
        </message>
        <message>
            <source>no trace step maps to this forward_ct</source>
            <translation>没有 trace 步对应此 forward_ct</translation>
        </message>
        <message>
            <source>Anchored at start_step=%1 from profiler_metadata.json</source>
            <translation>依据 profiler_metadata.json 锚定在 start_step=%1</translation>
        </message>
        <message>
            <source>start_step unknown: placed where the trace's bs and g_sq best match the records</source>
            <translation>start_step 未知：放置在 trace 的 bs 和 g_sq 与记录最吻合的位置</translation>
        </message>
        <message>
            <source>start_step unknown: the first record is placed on the first decode step of the trace</source>
            <translation>start_step 未知：第一条记录被放置在 trace 的第一个 decode 步上</translation>
        </message>
    </context>
    <context>
        <name>StepAnomalies</name>
        <message>
            <source>accept / commit tail growth: accept / TP sync %1 ms + commit %2 ms on the critical path, %3 % of the step vs median %4 % of %5 steps (accept band %6 ms, commit band %7 ms)</source>
            <translation>接受 / 提交尾部增长：关键路径上接受 / TP 同步 %1 ms + 提交 %2 ms，占步骤 %3 %，%5 个步骤的中位数为 %4 %（接受带 %6 ms，提交带 %7 ms）</translation>
        </message>
        <message>
            <source>pre-replay gap: the verify stream idled %1 ms before the graph replay vs median %2 ms of %3 steps (host preparation)</source>
            <translation>重放前间隙：验证流在图重放前空闲 %1 ms，%3 个步骤的中位数为 %2 ms（主机准备）</translation>
        </message>
        <message>
            <source>exposed communication: the consumers waited %1 ms on communication vs median %2 ms of %3 steps (%4 ms in flight)</source>
            <translation>暴露的通信：消费者等待通信 %1 ms，%3 个步骤的中位数为 %2 ms（传输中 %4 ms）</translation>
        </message>
    </context>
    <context>
        <name>StepBreakdownView</name>
        <message>
            <source>%1 vs record</source>
            <translation>%1 与记录对比</translation>
        </message>
    </context>
    <context>
        <name>StepChartsPanel</name>
        <message>
            <source>forward_ct</source>
            <translation>forward_ct</translation>
        </message>
    </context>
    <context>
        <name>StepRecordLoader</name>
        <message>
            <source>%1 is not an integer (%2); taken as not recorded</source>
            <translation>%1 不是整数（%2）；视为未记录</translation>
        </message>
        <message>
            <source>%1 is not a number (%2); taken as not recorded</source>
            <translation>%1 不是数字（%2）；视为未记录</translation>
        </message>
        <message>
            <source>reqs is not a list; taken as not recorded</source>
            <translation>reqs 不是列表；视为未记录</translation>
        </message>
        <message>
            <source>not an object; skipped</source>
            <translation>不是对象；已跳过</translation>
        </message>
        <message>
            <source>not a JSON object; skipped</source>
            <translation>不是 JSON 对象；已跳过</translation>
        </message>
        <message>
            <source>no forward_ct; skipped</source>
            <translation>没有 forward_ct；已跳过</translation>
        </message>
        <message>
            <source>forward_ct is not an integer; skipped</source>
            <translation>forward_ct 不是整数；已跳过</translation>
        </message>
        <message>
            <source>records is not a list; skipped</source>
            <translation>records 不是列表；已跳过</translation>
        </message>
        <message>
            <source>not a list</source>
            <translation>不是列表</translation>
        </message>
        <message>
            <source>line %1</source>
            <translation>第 %1 行</translation>
        </message>
        <message>
            <source>longer than %1 MB; line skipped</source>
            <translation>超过 %1 MB；已跳过该行</translation>
        </message>
        <message>
            <source>nested deeper than %1 levels; line skipped</source>
            <translation>嵌套超过 %1 层；已跳过该行</translation>
        </message>
        <message>
            <source>not valid JSON; line skipped</source>
            <translation>不是有效的 JSON；已跳过该行</translation>
        </message>
        <message>
            <source>%1: cannot be read</source>
            <translation>%1：无法读取</translation>
        </message>
        <message>
            <source>%1: JSON nested deeper than %2 levels; not loaded</source>
            <translation>%1：JSON 嵌套超过 %2 层；未加载</translation>
        </message>
        <message>
            <source>%1: a JSON document without DSpark step records (expected a server_info response, a dspark_info_record or a list of records)</source>
            <translation>%1：JSON 文档中没有 DSpark 步记录（应为 server_info 响应、dspark_info_record 或记录列表）</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>已取消加载</translation>
        </message>
        <message>
            <source>%1: holds no DSpark step records (was SGLANG_DSPARK_DEBUG_DUMP set when it was saved?)</source>
            <translation>%1：不含 DSpark 步记录（保存时是否设置了 SGLANG_DSPARK_DEBUG_DUMP？）</translation>
        </message>
        <message>
            <source>%1: no DSpark step records could be read (first problem: %2)</source>
            <translation>%1：无法读取任何 DSpark 步记录（第一个问题：%2）</translation>
        </message>
        <message numerus="yes">
            <source>%1: %n more problem(s) not listed</source>
            <translation>
                <numerusform>%1：另有 %n 个问题未列出</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n record(s) of rank %1 repeat a forward_ct already loaded; skipped (the first is kept)</source>
            <translation>
                <numerusform>rank %1 有 %n 条记录的 forward_ct 与已加载的重复；已跳过（保留第一条）</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>StepTable</name>
        <message>
            <source>Timeline</source>
            <translation>时间线</translation>
        </message>
        <message>
            <source>Anomaly</source>
            <translation>异常</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>DP rank of the record (server_info internal_states index)</source>
            <translation>记录所属的 DP rank（server_info 中 internal_states 的索引）</translation>
        </message>
        <message>
            <source>forward_ct</source>
            <translation>forward_ct</translation>
        </message>
        <message>
            <source>Scheduler step counter; gaps are prefill or idle steps</source>
            <translation>调度器步计数器；缺失的编号为 prefill 或空闲步</translation>
        </message>
        <message>
            <source>BS</source>
            <translation>BS</translation>
        </message>
        <message>
            <source>Batch size of the decode step</source>
            <translation>decode 步的 batch size</translation>
        </message>
        <message>
            <source>Mode</source>
            <translation>模式</translation>
        </message>
        <message>
            <source>DSpark verify mode of the step</source>
            <translation>该步的 DSpark 验证模式</translation>
        </message>
        <message>
            <source>Verify tokens</source>
            <translation>验证 token 数</translation>
        </message>
        <message>
            <source>Tokens in the target verify forward</source>
            <translation>目标验证前向中的 token 数</translation>
        </message>
        <message>
            <source>Verify tokens (local)</source>
            <translation>验证 token 数（本地）</translation>
        </message>
        <message>
            <source>Verify tokens of this rank before DP synchronisation</source>
            <translation>本 rank 在 DP 同步前的验证 token 数</translation>
        </message>
        <message>
            <source>Verify tokens (DP synced)</source>
            <translation>验证 token 数（DP 同步后）</translation>
        </message>
        <message>
            <source>Verify tokens after synchronisation across DP ranks</source>
            <translation>各 DP rank 间同步后的验证 token 数</translation>
        </message>
        <message>
            <source>Verify tokens (graph key)</source>
            <translation>验证 token 数（图键）</translation>
        </message>
        <message>
            <source>Verify tokens of the graph bucket that was replayed</source>
            <translation>所回放的图分桶对应的验证 token 数</translation>
        </message>
        <message>
            <source>Step CPU</source>
            <translation>步 CPU</translation>
        </message>
        <message>
            <source>Host monotonic interval between decode observations</source>
            <translation>相邻两次 decode 观测之间的主机单调时钟间隔</translation>
        </message>
        <message>
            <source>Step GPU</source>
            <translation>步 GPU</translation>
        </message>
        <message>
            <source>Device elapsed time of the STEP segment</source>
            <translation>STEP 段的设备耗时</translation>
        </message>
        <message>
            <source>Draft GPU</source>
            <translation>草稿 GPU</translation>
        </message>
        <message>
            <source>Device elapsed time of the DRAFT segment</source>
            <translation>DRAFT 段的设备耗时</translation>
        </message>
        <message>
            <source>Verify GPU</source>
            <translation>验证 GPU</translation>
        </message>
        <message>
            <source>Device elapsed time of the TARGET_VERIFY segment</source>
            <translation>TARGET_VERIFY 段的设备耗时</translation>
        </message>
        <message>
            <source>Unattributed</source>
            <translation>未归属</translation>
        </message>
        <message>
            <source>Step GPU − Draft GPU − Verify GPU: time outside both segments (eager accept/commit tail, gaps); empty when any part is not recorded</source>
            <translation>步 GPU − 草稿 GPU − 验证 GPU：两个段之外的时间（eager 模式的接受/提交尾段、间隙）；任一部分未记录时为空</translation>
        </message>
        <message>
            <source>Mean commit</source>
            <translation>平均提交</translation>
        </message>
        <message>
            <source>Mean commit length (acc_len) over the step's requests</source>
            <translation>该步各请求的平均提交长度（acc_len）</translation>
        </message>
        <message>
            <source>Committed</source>
            <translation>已提交</translation>
        </message>
        <message>
            <source>Tokens committed by the step (Σ acc_len)</source>
            <translation>该步提交的 token 数（Σ acc_len）</translation>
        </message>
        <message>
            <source>Mean correct drafts</source>
            <translation>平均正确草稿数</translation>
        </message>
        <message>
            <source>Mean number of accepted draft tokens per request</source>
            <translation>每个请求平均被接受的草稿 token 数</translation>
        </message>
        <message>
            <source>Acceptance</source>
            <translation>接受率</translation>
        </message>
        <message>
            <source>Σ correct drafts / Σ drafts verified (verify_len − 1 per request)</source>
            <translation>Σ 正确草稿数 / Σ 已验证草稿数（每个请求 verify_len − 1）</translation>
        </message>
        <message>
            <source>Effective TPOT (GPU)</source>
            <translation>有效 TPOT（GPU）</translation>
        </message>
        <message>
            <source>Step GPU / mean commit length</source>
            <translation>步 GPU / 平均提交长度</translation>
        </message>
        <message>
            <source>Effective TPOT (CPU)</source>
            <translation>有效 TPOT（CPU）</translation>
        </message>
        <message>
            <source>Step CPU (host interval) / mean commit length</source>
            <translation>步 CPU（主机间隔）/ 平均提交长度</translation>
        </message>
        <message>
            <source>Why the step stands out from steps with the same workload</source>
            <translation>该步相对于相同负载的步为何异常</translation>
        </message>
        <message>
            <source>match</source>
            <translation>匹配</translation>
        </message>
        <message>
            <source>mismatch</source>
            <translation>不匹配</translation>
        </message>
        <message>
            <source>unverified</source>
            <translation>未校验</translation>
        </message>
        <message>
            <source>not in trace</source>
            <translation>不在 trace 中</translation>
        </message>
        <message>
            <source>outside trace</source>
            <translation>超出 trace 范围</translation>
        </message>
        <message>
            <source>not matched to this profile</source>
            <translation>与此性能数据不匹配</translation>
        </message>
        <message>
            <source>Comm total</source>
            <translation>通信总时长</translation>
        </message>
        <message>
            <source>T_comm_total: the in-flight time of the step's communication operations</source>
            <translation>T_comm_total：该步通信算子的进行中时长</translation>
        </message>
        <message>
            <source>Comm exposed</source>
            <translation>暴露通信</translation>
        </message>
        <message>
            <source>T_comm_exposed: how long consumers were blocked waiting for communication</source>
            <translation>T_comm_exposed：消费方因等待通信而被阻塞的时长</translation>
        </message>
        <message>
            <source>Pre-replay gap</source>
            <translation>回放前间隙</translation>
        </message>
        <message>
            <source>Idle time of the verify stream right before the verify graph replay</source>
            <translation>验证图回放前验证流的空闲时间</translation>
        </message>
        <message>
            <source>Path: draft</source>
            <translation>路径：草稿</translation>
        </message>
        <message>
            <source>Critical path time in the draft forward and the planner</source>
            <translation>关键路径中草稿前向和规划器的时间</translation>
        </message>
        <message>
            <source>Path: verify</source>
            <translation>路径：验证</translation>
        </message>
        <message>
            <source>Critical path time in target verify compute</source>
            <translation>关键路径中目标验证计算的时间</translation>
        </message>
        <message>
            <source>Path: exposed comm</source>
            <translation>路径：暴露通信</translation>
        </message>
        <message>
            <source>Critical path time blocked on communication</source>
            <translation>关键路径中因通信而阻塞的时间</translation>
        </message>
        <message>
            <source>Path: accept / TP sync</source>
            <translation>路径：接受 / TP 同步</translation>
        </message>
        <message>
            <source>Critical path time in the eager accept tail and SpecTpSync</source>
            <translation>关键路径中 eager 接受尾段和 SpecTpSync 的时间</translation>
        </message>
        <message>
            <source>Path: commit</source>
            <translation>路径：提交</translation>
        </message>
        <message>
            <source>Critical path time in the eager commit of hidden state / KV</source>
            <translation>关键路径中 eager 提交 hidden state / KV 的时间</translation>
        </message>
        <message>
            <source>Path: host gap</source>
            <translation>路径：主机间隙</translation>
        </message>
        <message>
            <source>Critical path time the device waited for the host (launch-bound)</source>
            <translation>关键路径中设备等待主机的时间（受限于下发）</translation>
        </message>
        <message>
            <source>Path: idle</source>
            <translation>路径：空闲</translation>
        </message>
        <message>
            <source>Critical path time in stream gaps and unexplained waits</source>
            <translation>关键路径中流间隙和原因不明的等待时间</translation>
        </message>
        <message>
            <source>How the step matched the trace's scheduler step spans (bs, g_sq)</source>
            <translation>该步与 trace 中调度器步区间的匹配情况（bs、g_sq）</translation>
        </message>
    </context>
    <context>
        <name>TableExport</name>
        <message>
            <source>%1: cannot be written (%2)</source>
            <translation>%1：无法写入（%2）</translation>
        </message>
    </context>
    <context>
        <name>TimelineRenderer</name>
        <message>
            <source>max %1</source>
            <translation>最大 %1</translation>
        </message>
        <message>
            <source>+%1 levels folded</source>
            <translation>已折叠 %1 层</translation>
        </message>
        <message>
            <source>Span %1</source>
            <translation>跨度 %1</translation>
        </message>
        <message>
            <source>+%1 from start</source>
            <translation>距起点 +%1</translation>
        </message>
        <message>
            <source>clock time</source>
            <translation>时钟时间</translation>
        </message>
        <message>
            <source>from profile start</source>
            <translation>自性能数据起点</translation>
        </message>
    </context>
    <context>
        <name>TimelineReport</name>
        <message>
            <source>lane pattern "%1": %2</source>
            <translation>泳道模式 "%1"：%2</translation>
        </message>
    </context>
    <context>
        <name>cli</name>
        <message>
            <source>List the files, ranks, lanes and totals of a profile</source>
            <translation>列出性能数据的文件、rank、泳道和汇总</translation>
        </message>
        <message>
            <source>Stage bands, communication waits, pre-replay gaps and critical path per step; overlap per device</source>
            <translation>每步的阶段条带、通信等待、回放前间隙和关键路径；每个设备的重叠情况</translation>
        </message>
        <message>
            <source>Compare two runs: configuration, step distributions by class with intervals, matched step pairs, kernel regressions</source>
            <translation>比较两次运行：配置、按类别的步分布及区间、匹配的步对、kernel 回退</translation>
        </message>
        <message>
            <source>Write the simulated DeepSeek-V4 + DSpark demo profile with its ground truth</source>
            <translation>写出模拟的 DeepSeek-V4 + DSpark 演示性能数据及其真值</translation>
        </message>
        <message>
            <source>Render a step (or the whole profile) with its analyses to PNG, SVG or PDF</source>
            <translation>将某一步（或整个性能数据）连同其分析渲染为 PNG、SVG 或 PDF</translation>
        </message>
        <message>
            <source>warning: %1; they are listed but not placed on the timeline, and no per-step analysis is made for them</source>
            <translation>警告：%1；这些记录已列出，但未放到时间线上，也不对其做逐步分析</translation>
        </message>
        <message>
            <source>torch_npu database</source>
            <translation>torch_npu 数据库</translation>
        </message>
        <message>
            <source>msprof database</source>
            <translation>msprof 数据库</translation>
        </message>
        <message>
            <source>torch_npu trace_view.json</source>
            <translation>torch_npu trace_view.json</translation>
        </message>
        <message>
            <source>msprof JSON timeline</source>
            <translation>msprof JSON 时间线</translation>
        </message>
        <message>
            <source>PyTorch/Kineto trace</source>
            <translation>PyTorch/Kineto trace</translation>
        </message>
        <message>
            <source>SGLang /server_info</source>
            <translation>SGLang /server_info</translation>
        </message>
        <message>
            <source>DSpark info record</source>
            <translation>DSpark 信息记录</translation>
        </message>
        <message>
            <source>DSpark step records</source>
            <translation>DSpark 步骤记录</translation>
        </message>
        <message>
            <source>dspark_sps_profiler records</source>
            <translation>dspark_sps_profiler 记录</translation>
        </message>
        <message>
            <source>profiler_info.json</source>
            <translation>profiler_info.json</translation>
        </message>
        <message>
            <source>profiler_metadata.json</source>
            <translation>profiler_metadata.json</translation>
        </message>
        <message>
            <source>torch_npu analysis.db</source>
            <translation>torch_npu analysis.db</translation>
        </message>
        <message>
            <source>profiler CSV table</source>
            <translation>性能数据 CSV 表</translation>
        </message>
        <message>
            <source>communication summary</source>
            <translation>通信汇总</translation>
        </message>
        <message>
            <source>unknown format</source>
            <translation>未知格式</translation>
        </message>
        <message>
            <source>usage: dspark-timeline info PATH [--json]</source>
            <translation>用法：dspark-timeline info PATH [--json]</translation>
        </message>
        <message>
            <source>Profile: %1</source>
            <translation>性能数据：%1</translation>
        </message>
        <message>
            <source>Files (+ loaded, - not loaded, = duplicate):</source>
            <translation>文件（+ 已加载，- 未加载，= 重复）：</translation>
        </message>
        <message>
            <source>Scan: %1 files looked at (at most %2, %3 folder levels)</source>
            <translation>扫描：查看了 %1 个文件（最多 %2 个，%3 层文件夹）</translation>
        </message>
        <message>
            <source>  not read (raw profiler data): %1</source>
            <translation>  未读取（原始性能数据）：%1</translation>
        </message>
        <message>
            <source>Lanes:</source>
            <translation>泳道：</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Lane</source>
            <translation>泳道</translation>
        </message>
        <message>
            <source>Events</source>
            <translation>事件</translation>
        </message>
        <message>
            <source>Totals:</source>
            <translation>合计：</translation>
        </message>
        <message>
            <source>Device tasks</source>
            <translation>设备任务</translation>
        </message>
        <message>
            <source>Kernels with a name</source>
            <translation>有名称的算子</translation>
        </message>
        <message>
            <source>Collectives</source>
            <translation>集合通信</translation>
        </message>
        <message>
            <source>Communication tasks</source>
            <translation>通信任务</translation>
        </message>
        <message>
            <source>Host events</source>
            <translation>主机事件</translation>
        </message>
        <message>
            <source>Flows resolved</source>
            <translation>已匹配的流</translation>
        </message>
        <message>
            <source>Counter samples</source>
            <translation>计数器采样</translation>
        </message>
        <message>
            <source>warning: %1</source>
            <translation>警告：%1</translation>
        </message>
        <message>
            <source>export: unknown option %1</source>
            <translation>export：未知选项 %1</translation>
        </message>
        <message>
            <source>usage: dspark-timeline export PATH [--step N] --out FILE.png|svg|pdf [--width W] [--height H] [--lanes PATTERN] [--scale S] [--rank R] [--from MS] [--to MS] [--annotations FILE] [--no-annotations] [--no-legend]</source>
            <translation>用法：dspark-timeline export PATH [--step N] --out FILE.png|svg|pdf [--width W] [--height H] [--lanes PATTERN] [--scale S] [--rank R] [--from MS] [--to MS] [--annotations FILE] [--no-annotations] [--no-legend]</translation>
        </message>
        <message>
            <source>%1: unknown image type (use .png, .svg or .pdf)</source>
            <translation>%1：未知的图像类型（请使用 .png、.svg 或 .pdf）</translation>
        </message>
        <message>
            <source>export: --width must be a number of pixels from 400 to 20000, not "%1"</source>
            <translation>export：--width 必须是 400 到 20000 之间的像素数，而不是 "%1"</translation>
        </message>
        <message>
            <source>export: --height must be a number of pixels from 100 to 20000, not "%1"</source>
            <translation>export：--height 必须是 100 到 20000 之间的像素数，而不是 "%1"</translation>
        </message>
        <message>
            <source>export: --scale must be a number above 0 and at most 8, not "%1"</source>
            <translation>export：--scale 必须是大于 0 且不超过 8 的数，而不是 "%1"</translation>
        </message>
        <message>
            <source>export: --step takes a forward_ct, not "%1"</source>
            <translation>export：--step 需要一个 forward_ct，而不是 "%1"</translation>
        </message>
        <message>
            <source>export: --rank takes a rank number, not "%1"</source>
            <translation>export：--rank 需要一个 rank 编号，而不是 "%1"</translation>
        </message>
        <message>
            <source>export: %1 takes milliseconds from the start (0 or more), not "%2"</source>
            <translation>export：%1 需要从起点算起的毫秒数（0 或更大），而不是 "%2"</translation>
        </message>
        <message>
            <source>export: --to must be after --from</source>
            <translation>export：--to 必须晚于 --from</translation>
        </message>
        <message>
            <source>export: %1</source>
            <translation>export：%1</translation>
        </message>
        <message>
            <source>%1: no such annotation file</source>
            <translation>%1：标注文件不存在</translation>
        </message>
        <message>
            <source>%1: no DSpark step records aligned to the timeline, so there is no step %2 (export without --step for the whole profile)</source>
            <translation>%1：没有与时间线对齐的 DSpark 步记录，因此不存在步 %2（不带 --step 导出即可导出整个性能数据）</translation>
        </message>
        <message>
            <source>%1: forward_ct %2 is not an aligned step%3 (aligned steps: %4–%5)</source>
            <translation>%1：forward_ct %2 不是%3已对齐的步（已对齐的步：%4–%5）</translation>
        </message>
        <message>
            <source> of rank %1</source>
            <translation> rank %1 的</translation>
        </message>
        <message>
            <source>%1: no lane with events matches the lane pattern "%2"</source>
            <translation>%1：没有任何含事件的泳道匹配泳道模式 "%2"</translation>
        </message>
        <message numerus="yes">
            <source>wrote %1 (%2×%3 px at scale %4, %n lane(s))
</source>
            <translation>
                <numerusform>已写入 %1（%2×%3 px，缩放倍数 %4，%n 条泳道）
</numerusform>
            </translation>
        </message>
        <message>
            <source>usage: dspark-timeline analyze PATH [--json] [--rules FILE]</source>
            <translation>用法：dspark-timeline analyze PATH [--json] [--rules FILE]</translation>
        </message>
        <message>
            <source>--steps must be a whole number from 1 to 100000, not "%1"</source>
            <translation>--steps 必须是 1 到 100000 之间的整数，而不是 "%1"</translation>
        </message>
        <message>
            <source>--scale must be a whole number from 1 to 10000, not "%1"</source>
            <translation>--scale 必须是 1 到 10000 之间的整数，而不是 "%1"</translation>
        </message>
        <message>
            <source>--seed must be a non-negative whole number, not "%1"</source>
            <translation>--seed 必须是非负整数，而不是 "%1"</translation>
        </message>
        <message>
            <source>Wrote the demo profile to</source>
            <translation>演示性能数据已写入</translation>
        </message>
        <message>
            <source>iterations</source>
            <translation>迭代数</translation>
        </message>
        <message>
            <source>Wrote the comparison demo to</source>
            <translation>已写入对比演示到</translation>
        </message>
        <message>
            <source>device tasks</source>
            <translation>设备任务</translation>
        </message>
        <message>
            <source>kernels</source>
            <translation>算子</translation>
        </message>
        <message>
            <source>host events</source>
            <translation>主机事件</translation>
        </message>
        <message>
            <source>step records</source>
            <translation>步记录</translation>
        </message>
        <message>
            <source>usage: dspark-timeline demo OUTDIR [--steps N] [--seed S] [--scale K] [--trace-json] [--compare | --ranks N]</source>
            <translation>用法：dspark-timeline demo OUTDIR [--steps N] [--seed S] [--scale K] [--trace-json] [--compare | --ranks N]</translation>
        </message>
        <message>
            <source>trace events</source>
            <translation>trace 事件</translation>
        </message>
        <message>
            <source>time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>usage: dspark-timeline steps PATH [--csv|--json] [--rank R] [--anomaly-threshold Z]</source>
            <translation>用法：dspark-timeline steps PATH [--csv|--json] [--rank R] [--anomaly-threshold Z]</translation>
        </message>
        <message>
            <source>--rank expects a number, got "%1"</source>
            <translation>--rank 需要一个数字，实际为 "%1"</translation>
        </message>
        <message>
            <source>--anomaly-threshold expects a positive number, got "%1"</source>
            <translation>--anomaly-threshold 需要一个正数，实际为 "%1"</translation>
        </message>
        <message>
            <source>%1: no step records for rank %2 (ranks: %3)</source>
            <translation>%1：rank %2 没有步记录（现有 rank：%3）</translation>
        </message>
        <message>
            <source>%1 steps, %2 anomalous</source>
            <translation>%1 步，%2 个异常</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>the trace's step spans (batch size and token counts checked)</source>
            <translation>trace 中的步骤区间（已核对批大小与 token 数）</translation>
        </message>
        <message>
            <source>the trace's STEP_TIME spans (nothing to check them by)</source>
            <translation>trace 中的 STEP_TIME 区间（无可核对项）</translation>
        </message>
        <message>
            <source>the trace's ProfilerStep spans (nothing to check them by)</source>
            <translation>trace 中的 ProfilerStep 区间（无可核对项）</translation>
        </message>
        <message>
            <source>stable window, rank %1: forward_ct %2-%3 (%4 steps%5)</source>
            <translation>稳定窗口，rank %1：forward_ct %2-%3（%4 步%5）</translation>
        </message>
        <message>
            <source>alignment: %1, agreement %2 (%3 of %4 compared steps agree; %5 mismatched, %6 not in the trace, %7 trace steps without record)</source>
            <translation>对齐：%1，一致率 %2（比较的 %4 步中有 %3 步一致；%5 步不匹配，%6 步不在 trace 中，%7 个 trace 步没有记录）</translation>
        </message>
        <message>
            <source>not measurable</source>
            <translation>不可测量</translation>
        </message>
        <message>
            <source>Open the viewer, wait for the profile, print what the window shows as JSON and quit (checks an installation)</source>
            <translation>打开查看器，等待性能数据加载完毕，以 JSON 打印窗口显示的内容后退出（用于检查安装）</translation>
        </message>
        <message>
            <source>unknown command '%1' (dspark-timeline --help lists them)</source>
            <translation>未知命令“%1”（dspark-timeline --help 列出全部命令）</translation>
        </message>
        <message>
            <source>usage: dspark-timeline --self-check [--demo|PATH]</source>
            <translation>用法：dspark-timeline --self-check [--demo|PATH]</translation>
        </message>
        <message>
            <source>usage: dspark-timeline compare BASELINE CHANGED [--json|--csv|--md] [--class MODE:BS:VT]</source>
            <translation>用法：dspark-timeline compare BASELINE CHANGED [--json|--csv|--md] [--class MODE:BS:VT]</translation>
        </message>
        <message>
            <source>--class %1: expected MODE:BS:VT, e.g. static:8:16</source>
            <translation>--class %1：应为 MODE:BS:VT，例如 static:8:16</translation>
        </message>
        <message>
            <source>Write one rank's summary (steps, collectives, lanes) for opening a large cluster</source>
            <translation>写出单个 rank 的摘要（步、集合通信、泳道），用于打开大型集群</translation>
        </message>
        <message>
            <source>warning: rank %1 not opened: %2</source>
            <translation>警告：rank %1 未打开：%2</translation>
        </message>
        <message>
            <source>Wrote the %1-rank demo to</source>
            <translation>已将 %1 个 rank 的演示写入</translation>
        </message>
        <message>
            <source>collectives per rank</source>
            <translation>每个 rank 的集合通信</translation>
        </message>
        <message>
            <source>--ranks must be a whole number from 2 to 512, not "%1"</source>
            <translation>--ranks 必须是 2 到 512 之间的整数，而不是 "%1"</translation>
        </message>
        <message>
            <source>usage: dspark-timeline summarize RANKDIR --out FILE.json [--rank R] [--rules FILE]</source>
            <translation>用法：dspark-timeline summarize RANKDIR --out FILE.json [--rank R] [--rules FILE]</translation>
        </message>
        <message>
            <source>%1 holds %2 rank(s); name the one to summarize with --rank R</source>
            <translation>%1 包含 %2 个 rank；请用 --rank R 指定要摘要的 rank</translation>
        </message>
        <message>
            <source>%1: cannot write the file (%2)</source>
            <translation>%1：无法写入该文件（%2）</translation>
        </message>
        <message>
            <source>Print the DSpark step table (derived columns, anomalies, timeline alignment), or the profile's own steps (ProfilerStep#N, scheduler iterations) without records</source>
            <translation>打印 DSpark 步表格（派生列、异常、时间线对齐），或在没有记录时打印性能数据自身的步（ProfilerStep#N、调度器迭代）</translation>
        </message>
        <message>
            <source>Kernel / operator summary of the profile, a step or a range: per kernel, per accelerator core and per stage</source>
            <translation>整个性能数据、某一步或某个范围的算子汇总：按算子、按加速核心、按阶段</translation>
        </message>
        <message>
            <source>No DSpark step records: the steps are %1.</source>
            <translation>没有 DSpark 步记录：步来自 %1。</translation>
        </message>
        <message>
            <source>%1: no steps for rank %2 (ranks: %3)</source>
            <translation>%1：rank %2 没有步（有步的 rank：%3）</translation>
        </message>
        <message>
            <source>%1: no DSpark step records found (expected a server_info JSON, a dspark_info_record or JSON Lines of DecodeStepRecords), and no ProfilerStep#N, STEP_TIME or scheduler iteration spans on the timeline</source>
            <translation>%1：未找到 DSpark 步记录（应为 server_info JSON、dspark_info_record 或 DecodeStepRecord 的 JSON Lines），时间线上也没有 ProfilerStep#N、STEP_TIME 或调度器迭代区间</translation>
        </message>
        <message>
            <source>usage: dspark-timeline kernels PATH [--step N|--from MS --to MS] [--rank R] [--json|--csv]</source>
            <translation>用法：dspark-timeline kernels PATH [--step N|--from MS --to MS] [--rank R] [--json|--csv]</translation>
        </message>
        <message>
            <source>kernels: --step and --rank take integers, --from and --to milliseconds from the start (0 or more)</source>
            <translation>kernels：--step 和 --rank 需要整数，--from 和 --to 需要从开始算起的毫秒数（0 或更大）</translation>
        </message>
        <message>
            <source>kernels: --to must be after --from</source>
            <translation>kernels：--to 必须在 --from 之后</translation>
        </message>
        <message>
            <source>%1: no step %2 (neither a DSpark step record on the timeline nor a step of the profile: %3)</source>
            <translation>%1：没有步 %2（既不是时间线上的 DSpark 步记录，也不是性能数据自身的步：%3）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::AnnotationOverlay</name>
        <message>
            <source>Add Annotation</source>
            <translation>添加标注</translation>
        </message>
        <message>
            <source>Add Marker</source>
            <translation>添加标记</translation>
        </message>
        <message>
            <source>Rename Marker</source>
            <translation>重命名标记</translation>
        </message>
        <message>
            <source>Change Marker Colour</source>
            <translation>更改标记颜色</translation>
        </message>
        <message>
            <source>Move Marker</source>
            <translation>移动标记</translation>
        </message>
        <message>
            <source>Edit Annotation Text</source>
            <translation>编辑标注文字</translation>
        </message>
        <message>
            <source>Change Annotation Colour</source>
            <translation>更改标注颜色</translation>
        </message>
        <message>
            <source>Move Annotation</source>
            <translation>移动标注</translation>
        </message>
        <message>
            <source>Delete Annotation</source>
            <translation>删除标注</translation>
        </message>
        <message>
            <source>Delete Marker</source>
            <translation>删除标记</translation>
        </message>
        <message>
            <source>Clear Annotations</source>
            <translation>清除标注</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::AnnotationTool</name>
        <message>
            <source>Text:</source>
            <translation>文本：</translation>
        </message>
        <message>
            <source>Add Note</source>
            <translation>添加注释</translation>
        </message>
        <message>
            <source>Add Arrow</source>
            <translation>添加箭头</translation>
        </message>
        <message>
            <source>Highlight Range</source>
            <translation>高亮区间</translation>
        </message>
        <message>
            <source>Edit Annotation</source>
            <translation>编辑标注</translation>
        </message>
        <message>
            <source>Edit Text…</source>
            <translation>编辑文本…</translation>
        </message>
        <message>
            <source>Colour</source>
            <translation>颜色</translation>
        </message>
        <message>
            <source>Red</source>
            <translation>红色</translation>
        </message>
        <message>
            <source>Orange</source>
            <translation>橙色</translation>
        </message>
        <message>
            <source>Green</source>
            <translation>绿色</translation>
        </message>
        <message>
            <source>Blue</source>
            <translation>蓝色</translation>
        </message>
        <message>
            <source>Purple</source>
            <translation>紫色</translation>
        </message>
        <message>
            <source>Black</source>
            <translation>黑色</translation>
        </message>
        <message>
            <source>Delete Annotation</source>
            <translation>删除标注</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ClusterStepTableModel</name>
        <message>
            <source>Step wall (ms)</source>
            <translation>步墙钟时间（ms）</translation>
        </message>
        <message>
            <source>Step GPU (ms)</source>
            <translation>步 GPU 时间（ms）</translation>
        </message>
        <message>
            <source>Exposed communication (ms)</source>
            <translation>暴露的通信（ms）</translation>
        </message>
        <message>
            <source>Waiting for late peers (ms)</source>
            <translation>等待迟到的对端（ms）</translation>
        </message>
        <message>
            <source>Pre-replay gap (ms)</source>
            <translation>重放前间隙（ms）</translation>
        </message>
        <message>
            <source>Critical-path category</source>
            <translation>关键路径类别</translation>
        </message>
        <message>
            <source>%1 %2 %</source>
            <translation>%1 %2 %</translation>
        </message>
        <message>
            <source>rank %1</source>
            <translation>rank %1</translation>
        </message>
        <message>
            <source>step %1</source>
            <translation>步 %1</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ClusterView</name>
        <message>
            <source>Clock offset of rank %1</source>
            <translation>rank %1 的时钟偏移</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Clock offset (µs)</source>
            <translation>时钟偏移（µs）</translation>
        </message>
        <message>
            <source>Spread (µs)</source>
            <translation>离散度（µs）</translation>
        </message>
        <message>
            <source>Collectives</source>
            <translation>集合通信</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>结论</translation>
        </message>
        <message>
            <source>Steps × ranks</source>
            <translation>步 × rank</translation>
        </message>
        <message>
            <source>Click a cell of the steps × ranks table to see that step's cross-rank critical path.</source>
            <translation>点击“步 × rank”表中的单元格，查看该步的跨 rank 关键路径。</translation>
        </message>
        <message>
            <source>Cross-rank critical path</source>
            <translation>跨 rank 关键路径</translation>
        </message>
        <message>
            <source>Communication matrix</source>
            <translation>通信矩阵</translation>
        </message>
        <message>
            <source>%1 ranks, %2 matched collectives; slowest: %3</source>
            <translation>%1 个 rank，%2 个匹配的集合通信；最慢：%3</translation>
        </message>
        <message>
            <source>none</source>
            <translation>无</translation>
        </message>
        <message>
            <source>set by you</source>
            <translation>由您设置</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ClusterWindow</name>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Cluster %1</source>
            <translation>集群 %1</translation>
        </message>
        <message>
            <source>Finding the ranks of %1…</source>
            <translation>正在查找 %1 的 rank…</translation>
        </message>
        <message>
            <source>Loading cancelled: nothing is shown. Open the folder again to load it.</source>
            <translation>加载已取消：不显示任何内容。再次打开该文件夹即可加载。</translation>
        </message>
        <message>
            <source>%1 of %2 ranks exceed the memory budget (%3, against each rank's estimated loaded size): their events load when you unfold them.</source>
            <translation>%2 个 rank 中有 %1 个超出内存预算（%3，按每个 rank 估计的加载后大小计）：展开它们时才加载其事件。</translation>
        </message>
        <message>
            <source>Loading ranks: %1…</source>
            <translation>正在加载 rank：%1…</translation>
        </message>
        <message numerus="yes">
            <source>Loading ranks: %1… (%n more waiting)</source>
            <translation>
                <numerusform>正在加载 rank：%1…（另有 %n 个等待中）</numerusform>
            </translation>
        </message>
        <message>
            <source>Rank %1 not opened: %2</source>
            <translation>rank %1 未打开：%2</translation>
        </message>
        <message>
            <source>Not loaded: %1 (%2)</source>
            <translation>未加载：%1（%2）</translation>
        </message>
        <message>
            <source>Rank %1 has only its summary: no events to show.</source>
            <translation>rank %1 只有摘要：没有可显示的事件。</translation>
        </message>
        <message>
            <source>cancelled</source>
            <translation>已取消</translation>
        </message>
        <message>
            <source>Rank %1 not loaded: %2</source>
            <translation>rank %1 未加载：%2</translation>
        </message>
        <message>
            <source>Rank %1 loaded.</source>
            <translation>rank %1 已加载。</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::CommMatrixTable</name>
        <message>
            <source>Group</source>
            <translation>通信组</translation>
        </message>
        <message>
            <source>in group %1</source>
            <translation>组内 %1</translation>
        </message>
        <message>
            <source>%1 (in group %2)</source>
            <translation>%1（组内 %2）</translation>
        </message>
        <message>
            <source>Transport</source>
            <translation>传输方式</translation>
        </message>
        <message>
            <source>Tasks</source>
            <translation>任务数</translation>
        </message>
        <message>
            <source>Source (global rank)</source>
            <translation>源（全局 rank）</translation>
        </message>
        <message>
            <source>Destination (global rank)</source>
            <translation>目的（全局 rank）</translation>
        </message>
        <message>
            <source>Time (µs)</source>
            <translation>时间 (µs)</translation>
        </message>
        <message>
            <source>Bandwidth (GB/s)</source>
            <translation>带宽 (GB/s)</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>大小</translation>
        </message>
        <message>
            <source>%1 bytes</source>
            <translation>%1 字节</translation>
        </message>
        <message>
            <source>rank %1</source>
            <translation>rank %1</translation>
        </message>
        <message>
            <source>every member</source>
            <translation>所有成员</translation>
        </message>
        <message>
            <source>collectives (wait %1 µs, transfer %2 µs)</source>
            <translation>集合通信（等待 %1 µs，传输 %2 µs）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ComparisonController</name>
        <message>
            <source>Export Comparison Figure</source>
            <translation>导出比较图</translation>
        </message>
        <message>
            <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
            <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>已写入 %1</translation>
        </message>
        <message>
            <source>Compare With F&amp;older…</source>
            <translation>与文件夹比较(&amp;O)…</translation>
        </message>
        <message>
            <source>Compare the open profile (baseline) with another profile folder (the changed run)</source>
            <translation>将打开的性能数据（基线）与另一个性能数据文件夹（变更运行）比较</translation>
        </message>
        <message>
            <source>Compare With Fi&amp;le…</source>
            <translation>与文件比较(&amp;L)…</translation>
        </message>
        <message>
            <source>Compare the open profile (baseline) with another profile file or step records</source>
            <translation>将打开的性能数据（基线）与另一个性能数据文件或步记录比较</translation>
        </message>
        <message>
            <source>Open Demo Co&amp;mparison</source>
            <translation>打开演示比较(&amp;M)</translation>
        </message>
        <message>
            <source>Compare the demo's baseline run with its changed run</source>
            <translation>比较演示的基线运行与变更运行</translation>
        </message>
        <message>
            <source>&amp;Swap Baseline and Changed</source>
            <translation>交换基线与变更(&amp;S)</translation>
        </message>
        <message>
            <source>Close &amp;Baseline</source>
            <translation>关闭基线(&amp;B)</translation>
        </message>
        <message>
            <source>Leave an ordinary window on the changed run</source>
            <translation>留下显示变更运行的普通窗口</translation>
        </message>
        <message>
            <source>Close &amp;Changed Run</source>
            <translation>关闭变更运行(&amp;C)</translation>
        </message>
        <message>
            <source>Leave an ordinary window on the baseline</source>
            <translation>留下显示基线的普通窗口</translation>
        </message>
        <message>
            <source>Export Comparison &amp;Figure…</source>
            <translation>导出比较图(&amp;F)…</translation>
        </message>
        <message>
            <source>Save the current step pair, aligned, with its deltas, bands and legend (PNG, SVG or PDF)</source>
            <translation>保存当前步对：对齐，附差值、条带与图例（PNG、SVG 或 PDF）</translation>
        </message>
        <message>
            <source>&amp;Clear Recent Comparisons</source>
            <translation>清除最近的比较(&amp;C)</translation>
        </message>
        <message>
            <source>Recent Compa&amp;risons</source>
            <translation>最近的比较(&amp;R)</translation>
        </message>
        <message>
            <source>Configuration Diff</source>
            <translation>配置差异</translation>
        </message>
        <message>
            <source>Distributions</source>
            <translation>分布</translation>
        </message>
        <message>
            <source>Matched Pairs</source>
            <translation>匹配的步对</translation>
        </message>
        <message>
            <source>Kernel Diff</source>
            <translation>算子差异</translation>
        </message>
        <message>
            <source>Comparison &amp;Panels</source>
            <translation>比较面板(&amp;P)</translation>
        </message>
        <message>
            <source>Compariso&amp;n</source>
            <translation>比较(&amp;N)</translation>
        </message>
        <message>
            <source>Swap</source>
            <translation>交换</translation>
        </message>
        <message>
            <source>Close Baseline</source>
            <translation>关闭基线</translation>
        </message>
        <message>
            <source>Close Changed</source>
            <translation>关闭变更</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>Baseline Profile Folder</source>
            <translation>基线性能数据文件夹</translation>
        </message>
        <message>
            <source>Baseline Profile File</source>
            <translation>基线性能数据文件</translation>
        </message>
        <message>
            <source>Compare With Profile Folder</source>
            <translation>与性能数据文件夹比较</translation>
        </message>
        <message>
            <source>Compare With Profile File</source>
            <translation>与性能数据文件比较</translation>
        </message>
        <message>
            <source>Changed Profile Folder</source>
            <translation>变更性能数据文件夹</translation>
        </message>
        <message>
            <source>Changed Profile File</source>
            <translation>变更性能数据文件</translation>
        </message>
        <message>
            <source>Profiles and step records (*.db *.json *.json.gz *.jsonl *.trace.json.gz);;All files (*)</source>
            <translation>性能数据与步记录 (*.db *.json *.json.gz *.jsonl *.trace.json.gz);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Loading %1 and %2…</source>
            <translation>正在加载 %1 和 %2…</translation>
        </message>
        <message>
            <source>Loading %1 to compare…</source>
            <translation>正在加载 %1 以进行比较…</translation>
        </message>
        <message>
            <source>Preparing the demo comparison…</source>
            <translation>正在准备演示比较…</translation>
        </message>
        <message>
            <source>Cannot compare</source>
            <translation>无法比较</translation>
        </message>
        <message>
            <source>--compare needs two profiles: --compare BASELINE CHANGED</source>
            <translation>--compare 需要两份性能数据：--compare BASELINE CHANGED</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>正在取消…</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>已取消加载</translation>
        </message>
        <message>
            <source>%1: cannot be opened</source>
            <translation>%1：无法打开</translation>
        </message>
        <message>
            <source>&amp;%1  %2  vs  %3</source>
            <translation>&amp;%1  %2  对比  %3</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（无）</translation>
        </message>
        <message>
            <source>Show a matched step pair ([ / ]) to align its kernels.</source>
            <translation>显示一个匹配的步对（[ / ]）以对齐其算子。</translation>
        </message>
        <message>
            <source>step %1 · %2</source>
            <translation>步 %1 · %2</translation>
        </message>
        <message>
            <source>Pair %5 of %6: baseline forward_ct %1 (%2), changed forward_ct %3 (%4)</source>
            <translation>步对 %5 / %6：基线 forward_ct %1（%2），变更 forward_ct %3（%4）</translation>
        </message>
        <message>
            <source>Baseline forward_ct %1 (%2), changed forward_ct %3 (%4): not one of the %6 pairs listed</source>
            <translation>基线 forward_ct %1（%2），变更 forward_ct %3（%4）：不在所列的 %6 个步对之中</translation>
        </message>
        <message>
            <source>No matched step pairs: the runs have no step class in common on both timelines</source>
            <translation>没有匹配的步对：两次运行在两条时间线上没有共同的步类别</translation>
        </message>
        <message>
            <source>Pairing the steps of the two runs… [ / ] walk the matched pairs once the comparison is ready</source>
            <translation>正在为两次运行的步配对…比较就绪后，[ / ] 即可在匹配的步对间移动</translation>
        </message>
        <message>
            <source>The baseline is %1 and the changed run %2: steps and kernel categories are compared; kernel names, streams, stage bands and communication are not (the platforms differ).</source>
            <translation>基线是%1，变更运行是%2：比较步与算子类别；算子名、流、阶段条带与通信不比较（平台不同）。</translation>
        </message>
        <message>
            <source>The baseline is %1 and the changed run %2: only what the step records carry is compared.</source>
            <translation>基线是%1，变更运行是%2：只比较步记录所含的内容。</translation>
        </message>
        <message>
            <source>No matched steps: the two runs are shown from their starts; steps line up when each run has aligned DSpark step records.</source>
            <translation>没有匹配的步：两次运行从各自的起点对齐显示；两次运行都有已对齐的 DSpark 步记录时，步才会逐一对齐。</translation>
        </message>
        <message numerus="yes">
            <source>Comparing: baseline (above) %1 — changed (below) %2 — %n matched step pair(s)</source>
            <translation>
                <numerusform>比较中：基线（上）%1 — 变更（下）%2 — %n 个匹配的步对</numerusform>
            </translation>
        </message>
        <message>
            <source>Baseline: %1
Changed: %2</source>
            <translation>基线：%1
变更：%2</translation>
        </message>
        <message>
            <source>Baseline: %1</source>
            <translation>基线：%1</translation>
        </message>
        <message>
            <source>Changed: %1</source>
            <translation>变更：%1</translation>
        </message>
        <message>
            <source>%1: unknown image type (use .png, .svg or .pdf)</source>
            <translation>%1：未知的图像类型（请使用 .png、.svg 或 .pdf）</translation>
        </message>
        <message>
            <source>No matched step pair to draw: the runs need aligned DSpark steps</source>
            <translation>没有可绘制的匹配步对：两次运行都需要已对齐的 DSpark 步</translation>
        </message>
        <message>
            <source>This pair is not on both timelines</source>
            <translation>该步对不在两条时间线上</translation>
        </message>
        <message>
            <source>Analysing the steps of both runs…</source>
            <translation>正在分析两次运行的步…</translation>
        </message>
        <message>
            <source>Comparing the two runs…</source>
            <translation>正在比较两次运行…</translation>
        </message>
        <message>
            <source>Baseline forward_ct %1 vs changed forward_ct %2</source>
            <translation>基线 forward_ct %1 对比变更 forward_ct %2</translation>
        </message>
        <message>
            <source>The whole baseline vs the whole changed run</source>
            <translation>整个基线对比整个变更运行</translation>
        </message>
        <message>
            <source>Aligning the kernels of %1…</source>
            <translation>正在对齐 %1 的算子…</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ConfigDiffPanel</name>
        <message>
            <source>Setting</source>
            <translation>设置</translation>
        </message>
        <message>
            <source>Baseline</source>
            <translation>基线</translation>
        </message>
        <message>
            <source>Changed</source>
            <translation>变更</translation>
        </message>
        <message>
            <source>State</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Open a comparison (File › Compare With…) to see what differs between two runs.</source>
            <translation>打开一个比较（文件 › 与…比较）以查看两次运行的差异。</translation>
        </message>
        <message>
            <source>One group of settings differs: a controlled experiment.</source>
            <translation>只有一组设置不同：这是受控实验。</translation>
        </message>
        <message>
            <source>No setting the files carry differs.</source>
            <translation>文件所含的设置没有差异。</translation>
        </message>
        <message>
            <source>(not recorded)</source>
            <translation>（未记录）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::CrossRankPathTable</name>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Category</source>
            <translation>类别</translation>
        </message>
        <message>
            <source>Start (µs)</source>
            <translation>开始 (µs)</translation>
        </message>
        <message>
            <source>Duration (µs)</source>
            <translation>时长 (µs)</translation>
        </message>
        <message>
            <source>What</source>
            <translation>内容</translation>
        </message>
        <message>
            <source>%1 (transfer after the last arrival)</source>
            <translation>%1（最后一个成员到达后的传输）</translation>
        </message>
        <message>
            <source>Step %1: no cross-rank critical path (no rank has this step's path)</source>
            <translation>步 %1：没有跨 rank 关键路径（没有 rank 有该步的路径）</translation>
        </message>
        <message>
            <source>Step %1: cross-rank critical path %2 µs, %3 jumps to a later peer; largest share: rank %4 %5, %6 µs (%7 %)%8</source>
            <translation>步 %1：跨 rank 关键路径 %2 µs，%3 次跳到更晚到达的对端；占比最大：rank %4 %5，%6 µs（%7 %）%8</translation>
        </message>
        <message>
            <source>; incomplete: a rank's summary has no per-step path</source>
            <translation>；不完整：某个 rank 的摘要没有逐步路径</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::DistributionPanel</name>
        <message>
            <source>Open a comparison to see the distributions of both runs.</source>
            <translation>打开一个比较以查看两次运行的分布。</translation>
        </message>
        <message>
            <source>Steps are compared by workload class (mode:bs:verify tokens) inside each run's stable window. Δ median with its 95 % bootstrap interval; an interval containing zero is noise.</source>
            <translation>步按负载类（mode:bs:verify tokens）在各次运行的稳定窗口内比较。Δ 中位数附 95 % bootstrap 区间；包含零的区间属于噪声。</translation>
        </message>
        <message>
            <source>No verify width is in both runs (the draft block changed): classes are mode:bs.</source>
            <translation>没有验证宽度同时出现在两次运行中（草稿块已变更）：类为 mode:bs。</translation>
        </message>
        <message>
            <source>Whole stable window (%1 / %2 steps)</source>
            <translation>整个稳定窗口（%1 / %2 步）</translation>
        </message>
        <message>
            <source>%1 — %2 (%3 / %4 steps)</source>
            <translation>%1 — %2（%3 / %4 步）</translation>
        </message>
        <message>
            <source>Quantity</source>
            <translation>指标</translation>
        </message>
        <message>
            <source>Baseline median</source>
            <translation>基线中位数</translation>
        </message>
        <message>
            <source>p10</source>
            <translation>p10</translation>
        </message>
        <message>
            <source>p90</source>
            <translation>p90</translation>
        </message>
        <message>
            <source>n</source>
            <translation>n</translation>
        </message>
        <message>
            <source>Changed median</source>
            <translation>变更中位数</translation>
        </message>
        <message>
            <source>Δ median</source>
            <translation>Δ 中位数</translation>
        </message>
        <message>
            <source>95 % interval</source>
            <translation>95 % 区间</translation>
        </message>
        <message>
            <source>Verdict</source>
            <translation>结论</translation>
        </message>
        <message>
            <source>not in both runs</source>
            <translation>并非两次运行都有</translation>
        </message>
        <message>
            <source>interval contains zero: within the noise</source>
            <translation>区间包含零：在噪声范围内</translation>
        </message>
        <message>
            <source>higher</source>
            <translation>更高</translation>
        </message>
        <message>
            <source>lower</source>
            <translation>更低</translation>
        </message>
        <message>
            <source> (better)</source>
            <translation>（更好）</translation>
        </message>
        <message>
            <source> (worse)</source>
            <translation>（更差）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::EventDetailsPane</name>
        <message>
            <source>Click to select this event</source>
            <translation>点击选中此事件</translation>
        </message>
        <message>
            <source>launched by</source>
            <translation>下发自</translation>
        </message>
        <message>
            <source>launches</source>
            <translation>下发</translation>
        </message>
        <message>
            <source>from framework op</source>
            <translation>来自框架算子</translation>
        </message>
        <message>
            <source>runs on device</source>
            <translation>运行于设备</translation>
        </message>
        <message>
            <source>sub-task of</source>
            <translation>父任务</translation>
        </message>
        <message>
            <source>sub-task</source>
            <translation>子任务</translation>
        </message>
        <message>
            <source>flow from</source>
            <translation>关联来自</translation>
        </message>
        <message>
            <source>flow to</source>
            <translation>关联指向</translation>
        </message>
        <message>
            <source>Property</source>
            <translation>属性</translation>
        </message>
        <message>
            <source>Value</source>
            <translation>值</translation>
        </message>
        <message>
            <source>Time range of %1</source>
            <translation>%1 的时间范围</translation>
        </message>
        <message>
            <source>Time range</source>
            <translation>时间范围</translation>
        </message>
        <message>
            <source>Start</source>
            <translation>开始</translation>
        </message>
        <message>
            <source>End</source>
            <translation>结束</translation>
        </message>
        <message>
            <source>Duration</source>
            <translation>时长</translation>
        </message>
        <message>
            <source>Device tasks starting in range</source>
            <translation>范围内开始的设备任务</translation>
        </message>
        <message>
            <source>Σ device task time (top level)</source>
            <translation>Σ 设备任务时间（顶层）</translation>
        </message>
        <message>
            <source>Host events starting in range (top level)</source>
            <translation>范围内开始的主机事件（顶层）</translation>
        </message>
        <message>
            <source>No selection — click an event on the timeline</source>
            <translation>未选中 — 请在时间线上点击一个事件</translation>
        </message>
        <message>
            <source>Event</source>
            <translation>事件</translation>
        </message>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Start (clock)</source>
            <translation>开始（时钟）</translation>
        </message>
        <message>
            <source>Lane</source>
            <translation>泳道</translation>
        </message>
        <message>
            <source>Process</source>
            <translation>进程</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Stream</source>
            <translation>流</translation>
        </message>
        <message>
            <source>Plane / stream</source>
            <translation>平面 / 流</translation>
        </message>
        <message>
            <source>Thread</source>
            <translation>线程</translation>
        </message>
        <message>
            <source>Depth</source>
            <translation>深度</translation>
        </message>
        <message>
            <source>Correlation id</source>
            <translation>关联 ID</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Arguments (%1)</source>
            <translation>参数（%1）</translation>
        </message>
        <message>
            <source>%1 — %2 / %3, %4</source>
            <translation>%1 — %2 / %3，%4</translation>
        </message>
        <message>
            <source>Links (%1)</source>
            <translation>关联（%1）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::EventTableModel</name>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Duration</source>
            <translation>时长</translation>
        </message>
        <message>
            <source>Start (from profile start)</source>
            <translation>开始（自性能数据起点）</translation>
        </message>
        <message>
            <source>Lane</source>
            <translation>泳道</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>类型</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::EventTablePanel</name>
        <message>
            <source>Filter by name…</source>
            <translation>按名称过滤…</translation>
        </message>
        <message>
            <source>Select a step or a time range (Ctrl+drag)</source>
            <translation>选择一个步或时间范围（Ctrl+拖动）</translation>
        </message>
        <message>
            <source>Click a step or a host call, or Ctrl+drag a time range: its device tasks are listed here</source>
            <translation>点击一个步或一次主机调用，或 Ctrl+拖动选择时间范围：其设备任务在此列出</translation>
        </message>
        <message>
            <source>events: %1</source>
            <translation>事件：%1</translation>
        </message>
        <message>
            <source>events: %1 of %2</source>
            <translation>事件：%1 / %2</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ExportDialog</name>
        <message>
            <source>Export Image</source>
            <translation>导出图像</translation>
        </message>
        <message>
            <source>What</source>
            <translation>内容</translation>
        </message>
        <message>
            <source>Current view</source>
            <translation>当前视图</translation>
        </message>
        <message>
            <source>Step:</source>
            <translation>步：</translation>
        </message>
        <message>
            <source>All lanes (full height)</source>
            <translation>所有泳道（完整高度）</translation>
        </message>
        <message>
            <source>e.g. Stream|Python (regular expression, empty = lanes with events)</source>
            <translation>例如 Stream|Python（正则表达式，留空 = 有事件的泳道）</translation>
        </message>
        <message>
            <source>Lanes:</source>
            <translation>泳道：</translation>
        </message>
        <message>
            <source>Size</source>
            <translation>尺寸</translation>
        </message>
        <message>
            <source> px</source>
            <translation> px</translation>
        </message>
        <message>
            <source>fit all lanes</source>
            <translation>容纳所有泳道</translation>
        </message>
        <message>
            <source>Pixels per logical pixel of PNG output (2× for high-DPI screens and print)</source>
            <translation>PNG 输出中每个逻辑像素对应的像素数（高 DPI 屏幕和打印用 2×）</translation>
        </message>
        <message>
            <source>Width:</source>
            <translation>宽度：</translation>
        </message>
        <message>
            <source>Height:</source>
            <translation>高度：</translation>
        </message>
        <message>
            <source>Scale:</source>
            <translation>缩放倍数：</translation>
        </message>
        <message>
            <source>Include</source>
            <translation>包含</translation>
        </message>
        <message>
            <source>Stage bands</source>
            <translation>阶段条带</translation>
        </message>
        <message>
            <source>Communication brackets</source>
            <translation>通信区间</translation>
        </message>
        <message>
            <source>Critical path</source>
            <translation>关键路径</translation>
        </message>
        <message>
            <source>Annotations</source>
            <translation>标注</translation>
        </message>
        <message>
            <source>Legend</source>
            <translation>图例</translation>
        </message>
        <message>
            <source>Browse…</source>
            <translation>浏览…</translation>
        </message>
        <message>
            <source>File:</source>
            <translation>文件：</translation>
        </message>
        <message>
            <source>Export</source>
            <translation>导出</translation>
        </message>
        <message>
            <source>Copy Image</source>
            <translation>复制图像</translation>
        </message>
        <message>
            <source>forward_ct %1 (rank %2)</source>
            <translation>forward_ct %1（rank %2）</translation>
        </message>
        <message>
            <source> — anomalous</source>
            <translation> — 异常</translation>
        </message>
        <message>
            <source>Copied a %1×%2 image to the clipboard.</source>
            <translation>已将 %1×%2 的图像复制到剪贴板。</translation>
        </message>
        <message>
            <source>Nothing to export</source>
            <translation>没有可导出的内容</translation>
        </message>
        <message>
            <source>%1×%2 px at %3× = %4×%5 pixels</source>
            <translation>%1×%2 px，%3× 倍率 = %4×%5 像素</translation>
        </message>
        <message>
            <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
            <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
        </message>
        <message>
            <source>%1: choose a file ending in .png, .svg or .pdf</source>
            <translation>%1：请选择以 .png、.svg 或 .pdf 结尾的文件</translation>
        </message>
        <message>
            <source>No profile is open.</source>
            <translation>未打开性能数据。</translation>
        </message>
        <message>
            <source>%1: the folder cannot be created</source>
            <translation>%1：无法创建该文件夹</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>已写入 %1</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::FileListPanel</name>
        <message>
            <source>Status</source>
            <translation>状态</translation>
        </message>
        <message>
            <source>Format</source>
            <translation>格式</translation>
        </message>
        <message>
            <source>File</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Why</source>
            <translation>原因</translation>
        </message>
        <message>
            <source>No profile open.</source>
            <translation>未打开性能数据。</translation>
        </message>
        <message>
            <source>not loaded</source>
            <translation>未加载</translation>
        </message>
        <message>
            <source>loaded</source>
            <translation>已加载</translation>
        </message>
        <message>
            <source>duplicate</source>
            <translation>重复</translation>
        </message>
        <message>
            <source>same content as %1</source>
            <translation>与 %1 内容相同</translation>
        </message>
        <message>
            <source>%1 of %2 files loaded; %3 files looked at (at most %4, %5 folder levels)</source>
            <translation>已加载 %2 个文件中的 %1 个；查看了 %3 个文件（最多 %4 个，%5 层文件夹）</translation>
        </message>
        <message>
            <source> — the scan stopped before the end of the folder</source>
            <translation> — 扫描在文件夹结束前停止</translation>
        </message>
        <message numerus="yes">
            <source>; %n raw data folder(s) not read</source>
            <translation>
                <numerusform>；%n 个原始数据文件夹未读取</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::KernelDiffPanel</name>
        <message>
            <source>Kernel</source>
            <translation>算子</translation>
        </message>
        <message>
            <source>In</source>
            <translation>所在</translation>
        </message>
        <message>
            <source>Baseline</source>
            <translation>基线</translation>
        </message>
        <message>
            <source>Changed</source>
            <translation>变更</translation>
        </message>
        <message>
            <source>Δ</source>
            <translation>Δ</translation>
        </message>
        <message>
            <source>Show a matched step pair ([ / ]) to align its kernels.</source>
            <translation>显示一个匹配的步对（[ / ]）以对齐其算子。</translation>
        </message>
        <message>
            <source>%1: %2 kernels matched (Σ Δ %3), %4 in the baseline only, %5 in the changed run only%6. Click a row to show both tasks.</source>
            <translation>%1：%2 个算子匹配（Σ Δ %3），%4 个仅在基线中，%5 个仅在变更运行中%6。点击一行以显示两个任务。</translation>
        </message>
        <message>
            <source> (past the alignment's bound: paired by occurrence)</source>
            <translation>（超出对齐上限：按出现次序配对）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::KernelSummaryPanel</name>
        <message>
            <source>%1 in %2, longest first</source>
            <translation>%2 中的 %1，最长的在前</translation>
        </message>
        <message>
            <source>Kernel</source>
            <translation>算子</translation>
        </message>
        <message>
            <source>Core</source>
            <translation>核心</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>次数</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>总计</translation>
        </message>
        <message>
            <source>Mean</source>
            <translation>平均</translation>
        </message>
        <message>
            <source>p50</source>
            <translation>p50</translation>
        </message>
        <message>
            <source>p90</source>
            <translation>p90</translation>
        </message>
        <message>
            <source>Max</source>
            <translation>最大</translation>
        </message>
        <message>
            <source>Share of device time</source>
            <translation>占设备时间</translation>
        </message>
        <message>
            <source>Kernel summary</source>
            <translation>算子汇总</translation>
        </message>
        <message>
            <source>Kernel summary of %1: computing…</source>
            <translation>%1的算子汇总：正在计算…</translation>
        </message>
        <message>
            <source>Kernel summary of %1: %2 kernels, %3 of device time</source>
            <translation>%1的算子汇总：%2 个算子，设备时间 %3</translation>
        </message>
        <message>
            <source>%1 %2</source>
            <translation>%1 %2</translation>
        </message>
        <message>
            <source>Source: %1 (the timeline has no device kernels).</source>
            <translation>来源：%1（时间线上没有设备算子）。</translation>
        </message>
        <message>
            <source>Source: the timeline's device tasks.</source>
            <translation>来源：时间线上的设备任务。</translation>
        </message>
        <message>
            <source>By core: %1.</source>
            <translation>按核心：%1。</translation>
        </message>
        <message>
            <source>By stage: %1.</source>
            <translation>按阶段：%1。</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::LaneActions</name>
        <message>
            <source>&amp;Filter Lanes…</source>
            <translation>过滤泳道(&amp;F)…</translation>
        </message>
        <message>
            <source>Show only the lanes whose name, process, kind or rank match</source>
            <translation>只显示名称、进程、类型或 rank 匹配的泳道</translation>
        </message>
        <message>
            <source>Reset Lane La&amp;yout</source>
            <translation>重置泳道布局(&amp;Y)</translation>
        </message>
        <message>
            <source>The profile's own lane order, nothing hidden, pinned or collapsed, deep lanes folded</source>
            <translation>恢复性能数据自身的泳道顺序，不隐藏、不固定、不折叠分组，较深的泳道折叠层级</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::LaneFilterBar</name>
        <message>
            <source>%1 of %2 lanes</source>
            <translation>%1 / %2 条泳道</translation>
        </message>
        <message>
            <source>Lanes:</source>
            <translation>泳道：</translation>
        </message>
        <message>
            <source>name, process, kind:comm, rank:1, -exclude</source>
            <translation>名称、进程、kind:comm、rank:1、-排除词</translation>
        </message>
        <message>
            <source>Show only the lanes that match every word: part of the name, process, kind or rank; kind:K and rank:N match one field; -word leaves lanes out</source>
            <translation>只显示与每个词都匹配的泳道：名称、进程、类型或 rank 的一部分；kind:K 和 rank:N 只匹配对应字段；-词 排除匹配的泳道</translation>
        </message>
        <message>
            <source>Clear the filter and close</source>
            <translation>清除过滤并关闭</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::LegendPanel</name>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Events</source>
            <translation>事件</translation>
        </message>
        <message>
            <source>Time in view</source>
            <translation>视图内时间</translation>
        </message>
        <message>
            <source>Double-click a name to search for it</source>
            <translation>双击名称以搜索</translation>
        </message>
        <message>
            <source>%1 names in view (the %2 longest shown)</source>
            <translation>视图内共 %1 个名称（显示耗时最长的 %2 个）</translation>
        </message>
        <message>
            <source>%1 names in view</source>
            <translation>视图内共 %1 个名称</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::MainWindow</name>
        <message>
            <source>DSpark Timeline</source>
            <translation>DSpark Timeline</translation>
        </message>
        <message>
            <source>Cancel</source>
            <translation>取消</translation>
        </message>
        <message>
            <source>&amp;File</source>
            <translation>文件(&amp;F)</translation>
        </message>
        <message>
            <source>frame %1 ms</source>
            <translation>帧 %1 ms</translation>
        </message>
        <message>
            <source>Profiles (*.db *.json *.json.gz *.jsonl *.trace.json.gz);;All files (*)</source>
            <translation>性能数据 (*.db *.json *.json.gz *.jsonl *.trace.json.gz);;所有文件 (*)</translation>
        </message>
        <message>
            <source>Repaint of %1×%2: min %3 ms, median %4 ms, max %5 ms</source>
            <translation>重绘 %1×%2：最小 %3 ms，中位数 %4 ms，最大 %5 ms</translation>
        </message>
        <message>
            <source>Open Profile &amp;Folder…</source>
            <translation>打开性能数据文件夹(&amp;F)…</translation>
        </message>
        <message>
            <source>Open a profiler output folder (all ranks and formats in it)</source>
            <translation>打开性能数据输出文件夹（包含其中所有 rank 和格式）</translation>
        </message>
        <message>
            <source>Open F&amp;ile…</source>
            <translation>打开文件(&amp;I)…</translation>
        </message>
        <message>
            <source>Open one profiler file (.db, trace_view.json, *.trace.json.gz)</source>
            <translation>打开单个性能数据文件（.db、trace_view.json、*.trace.json.gz）</translation>
        </message>
        <message>
            <source>Open &amp;Demo Profile</source>
            <translation>打开演示性能数据(&amp;D)</translation>
        </message>
        <message>
            <source>Open the simulated DeepSeek-V4 + DSpark decode profile</source>
            <translation>打开模拟的 DeepSeek-V4 + DSpark decode 性能数据</translation>
        </message>
        <message>
            <source>&amp;Clear Recent Profiles</source>
            <translation>清除最近的性能数据(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Find Events…</source>
            <translation>查找事件(&amp;F)…</translation>
        </message>
        <message>
            <source>Search events by name (substring or regular expression)</source>
            <translation>按名称搜索事件（子串或正则表达式）</translation>
        </message>
        <message>
            <source>Find &amp;Next</source>
            <translation>查找下一个(&amp;N)</translation>
        </message>
        <message>
            <source>Find &amp;Previous</source>
            <translation>查找上一个(&amp;P)</translation>
        </message>
        <message>
            <source>C&amp;lear Selection</source>
            <translation>清除选择(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Back</source>
            <translation>后退(&amp;B)</translation>
        </message>
        <message>
            <source>Go back to the previous view (zoom/pan history)</source>
            <translation>返回上一个视图（缩放/平移历史）</translation>
        </message>
        <message>
            <source>&amp;Forward</source>
            <translation>前进(&amp;F)</translation>
        </message>
        <message>
            <source>Go forward in the zoom/pan history</source>
            <translation>在缩放/平移历史中前进</translation>
        </message>
        <message>
            <source>&amp;Undo View Change</source>
            <translation>撤销视图变更(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Redo View Change</source>
            <translation>重做视图变更(&amp;R)</translation>
        </message>
        <message>
            <source>Zoom &amp;In</source>
            <translation>放大(&amp;I)</translation>
        </message>
        <message>
            <source>Zoom in (W; Ctrl+wheel)</source>
            <translation>放大（W；Ctrl+滚轮）</translation>
        </message>
        <message>
            <source>Zoom &amp;Out</source>
            <translation>缩小(&amp;O)</translation>
        </message>
        <message>
            <source>Zoom out (S; Ctrl+wheel)</source>
            <translation>缩小（S；Ctrl+滚轮）</translation>
        </message>
        <message>
            <source>Pan &amp;Left</source>
            <translation>向左平移(&amp;L)</translation>
        </message>
        <message>
            <source>Pan left (A; Shift+wheel; drag)</source>
            <translation>向左平移（A；Shift+滚轮；拖动）</translation>
        </message>
        <message>
            <source>Pan &amp;Right</source>
            <translation>向右平移(&amp;R)</translation>
        </message>
        <message>
            <source>Pan right (D; Shift+wheel; drag)</source>
            <translation>向右平移（D；Shift+滚轮；拖动）</translation>
        </message>
        <message>
            <source>Fit &amp;All</source>
            <translation>显示全部(&amp;A)</translation>
        </message>
        <message>
            <source>Show the whole profile (Home)</source>
            <translation>显示整个性能数据（Home）</translation>
        </message>
        <message>
            <source>Zoom to &amp;Selection</source>
            <translation>缩放到所选内容(&amp;S)</translation>
        </message>
        <message>
            <source>Zoom to the selected event or time range (F)</source>
            <translation>缩放到所选事件或时间范围（F）</translation>
        </message>
        <message>
            <source>Zoom to S&amp;tep</source>
            <translation>缩放到步(&amp;T)</translation>
        </message>
        <message>
            <source>Zoom to the step selected in the step table (G)</source>
            <translation>缩放到步表格中所选的步（G）</translation>
        </message>
        <message>
            <source>&amp;Previous Step</source>
            <translation>上一步(&amp;P)</translation>
        </message>
        <message>
            <source>&amp;Next Step</source>
            <translation>下一步(&amp;N)</translation>
        </message>
        <message>
            <source>Previous &amp;Anomalous Step</source>
            <translation>上一个异常步(&amp;A)</translation>
        </message>
        <message>
            <source>Next A&amp;nomalous Step</source>
            <translation>下一个异常步(&amp;N)</translation>
        </message>
        <message>
            <source>Absolute &amp;Clock Time</source>
            <translation>绝对时钟时间(&amp;C)</translation>
        </message>
        <message>
            <source>Show times on the profile's clock instead of from the profile start</source>
            <translation>按性能数据自身的时钟显示时间，而不是从性能数据起点算起</translation>
        </message>
        <message>
            <source>Show All &amp;Flows in View</source>
            <translation>显示视图内所有关联连线(&amp;F)</translation>
        </message>
        <message>
            <source>Draw every host→device link of the visible events, not only the selection's</source>
            <translation>绘制所有可见事件的主机→设备关联，而不仅是所选事件的</translation>
        </message>
        <message>
            <source>&amp;Collapse All Groups</source>
            <translation>折叠所有分组(&amp;C)</translation>
        </message>
        <message>
            <source>&amp;Expand All Groups</source>
            <translation>展开所有分组(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;Fold / Unfold Lane Levels</source>
            <translation>折叠 / 展开泳道层级(&amp;F)</translation>
        </message>
        <message>
            <source>Show &amp;All Lanes</source>
            <translation>显示所有泳道(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;Reset Panel Layout</source>
            <translation>重置面板布局(&amp;R)</translation>
        </message>
        <message>
            <source>Show &amp;Frame Time</source>
            <translation>显示帧时间(&amp;F)</translation>
        </message>
        <message>
            <source>Show how long the last repaint of the lanes took</source>
            <translation>显示泳道上一次重绘的耗时</translation>
        </message>
        <message>
            <source>&amp;Measure Repaint</source>
            <translation>测量重绘(&amp;M)</translation>
        </message>
        <message>
            <source>Repaint the lanes 20 times and report the frame times</source>
            <translation>将泳道重绘 20 次并报告帧时间</translation>
        </message>
        <message>
            <source>&amp;Keyboard and Mouse</source>
            <translation>键盘和鼠标(&amp;K)</translation>
        </message>
        <message>
            <source>&amp;About DSpark Timeline</source>
            <translation>关于 DSpark Timeline(&amp;A)</translation>
        </message>
        <message>
            <source>&amp;System Default</source>
            <translation>系统默认(&amp;S)</translation>
        </message>
        <message>
            <source>Open &amp;Recent</source>
            <translation>最近打开(&amp;R)</translation>
        </message>
        <message>
            <source>&amp;Edit</source>
            <translation>编辑(&amp;E)</translation>
        </message>
        <message>
            <source>&amp;View</source>
            <translation>视图(&amp;V)</translation>
        </message>
        <message>
            <source>&amp;Hidden Lanes</source>
            <translation>隐藏的泳道(&amp;H)</translation>
        </message>
        <message>
            <source>&amp;Panels</source>
            <translation>面板(&amp;P)</translation>
        </message>
        <message>
            <source>&amp;Navigate</source>
            <translation>导航(&amp;N)</translation>
        </message>
        <message>
            <source>&amp;Tools</source>
            <translation>工具(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Language</source>
            <translation>语言(&amp;L)</translation>
        </message>
        <message>
            <source>&amp;Debug</source>
            <translation>调试(&amp;D)</translation>
        </message>
        <message>
            <source>&amp;Help</source>
            <translation>帮助(&amp;H)</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>步表</translation>
        </message>
        <message>
            <source>Kernels / Events</source>
            <translation>算子 / 事件</translation>
        </message>
        <message>
            <source>Details</source>
            <translation>详情</translation>
        </message>
        <message>
            <source>Search</source>
            <translation>搜索</translation>
        </message>
        <message>
            <source>Legend</source>
            <translation>图例</translation>
        </message>
        <message>
            <source>Show all nesting levels of the selected lane, or only its first %1 (E)</source>
            <translation>显示所选泳道的全部嵌套层级，或只显示前 %1 层（E）</translation>
        </message>
        <message>
            <source>Files</source>
            <translation>文件</translation>
        </message>
        <message>
            <source>Open a profile folder written by the torch_npu / msprof profiler (or a Kineto trace). Step records (server_info, step-record JSON Lines) next to it are aligned to the timeline.&lt;br&gt;&lt;br&gt;&lt;b&gt;Navigate:&lt;/b&gt; W/S zoom, A/D pan, drag to pan, Ctrl+wheel zoom, right-drag to zoom to an interval, Ctrl+drag to select a time range, F zoom to selection, Home fit all, Alt+Left back.</source>
            <translation>打开由 torch_npu / msprof profiler 写出的性能数据文件夹（或 Kineto trace）。其旁边的步记录（server_info、步记录 JSON Lines）会与时间线对齐。&lt;br&gt;&lt;br&gt;&lt;b&gt;导航：&lt;/b&gt;W/S 缩放，A/D 平移，拖动以平移，Ctrl+滚轮缩放，右键拖动缩放到区间，Ctrl+拖动选择时间范围，F 缩放到所选内容，Home 显示全部，Alt+Left 后退。</translation>
        </message>
        <message>
            <source>Open Profile Folder…</source>
            <translation>打开性能数据文件夹…</translation>
        </message>
        <message>
            <source>Open File…</source>
            <translation>打开文件…</translation>
        </message>
        <message>
            <source>Open Demo Profile</source>
            <translation>打开演示性能数据</translation>
        </message>
        <message>
            <source>Recent profiles</source>
            <translation>最近的性能数据</translation>
        </message>
        <message>
            <source>These are DSpark step records without a profiler timeline: the step table and its charts are shown. Open the profiler output folder (or put the records next to it) to see the steps on the device timeline.</source>
            <translation>这些是没有性能分析时间线的 DSpark 步记录：此处显示步表及其图表。打开性能分析输出文件夹（或把步记录放在它旁边），即可在设备时间线上查看这些步。</translation>
        </message>
        <message>
            <source>--cluster needs a folder of ranks</source>
            <translation>--cluster 需要一个包含各 rank 的文件夹</translation>
        </message>
        <message>
            <source>%1 events in %2 lanes, %3 ranks, %4 links</source>
            <translation>%2 条泳道中共 %1 个事件，%3 个 rank，%4 个关联</translation>
        </message>
        <message>
            <source> — warnings: %1 (first: %2)</source>
            <translation> — 警告：%1（第一条：%2）</translation>
        </message>
        <message>
            <source>Step records attached by hand: they did not match this profile</source>
            <translation>已手动关联步记录：它们与此性能数据不匹配</translation>
        </message>
        <message>
            <source>%1 · %2</source>
            <translation>%1 · %2</translation>
        </message>
        <message>
            <source>Device tasks launched by %1</source>
            <translation>由 %1 下发的设备任务</translation>
        </message>
        <message>
            <source>Device tasks in the selected range (%1)</source>
            <translation>所选范围内的设备任务（%1）</translation>
        </message>
        <message>
            <source>Steps · %1</source>
            <translation>步表 · %1</translation>
        </message>
        <message>
            <source>forward_ct %1 (rank %2)</source>
            <translation>forward_ct %1（rank %2）</translation>
        </message>
        <message>
            <source> — anomalous: %1</source>
            <translation> — 异常：%1</translation>
        </message>
        <message>
            <source>Step forward_ct %1 is not on the timeline</source>
            <translation>步 forward_ct %1 不在时间线上</translation>
        </message>
        <message>
            <source>Step forward_ct %1 is not on the timeline (%2)</source>
            <translation>步 forward_ct %1 不在时间线上（%2）</translation>
        </message>
        <message>
            <source>step %1 · %2</source>
            <translation>步 %1 · %2</translation>
        </message>
        <message>
            <source>Device tasks of step %1 (longest first)</source>
            <translation>步 %1 的设备任务（按耗时从长到短）</translation>
        </message>
        <message>
            <source>Zoom to This Event</source>
            <translation>缩放到此事件</translation>
        </message>
        <message>
            <source>Copy Name</source>
            <translation>复制名称</translation>
        </message>
        <message>
            <source>Find Events with This Name</source>
            <translation>查找同名事件</translation>
        </message>
        <message>
            <source>Unpin Lane</source>
            <translation>取消固定泳道</translation>
        </message>
        <message>
            <source>Pin Lane to Top</source>
            <translation>将泳道固定到顶部</translation>
        </message>
        <message>
            <source>Unfold Lane Levels</source>
            <translation>展开泳道层级</translation>
        </message>
        <message>
            <source>Fold Lane Levels</source>
            <translation>折叠泳道层级</translation>
        </message>
        <message>
            <source>Hide Lane</source>
            <translation>隐藏泳道</translation>
        </message>
        <message>
            <source>Move Lane Up</source>
            <translation>上移泳道</translation>
        </message>
        <message>
            <source>Move Lane Down</source>
            <translation>下移泳道</translation>
        </message>
        <message>
            <source>Expand Group</source>
            <translation>展开分组</translation>
        </message>
        <message>
            <source>Collapse Group</source>
            <translation>折叠分组</translation>
        </message>
        <message>
            <source>Add Marker Here</source>
            <translation>在此处添加标记</translation>
        </message>
        <message>
            <source>(none)</source>
            <translation>（无）</translation>
        </message>
        <message>
            <source>Show %1 / %2</source>
            <translation>显示 %1 / %2</translation>
        </message>
        <message>
            <source>(no hidden lanes)</source>
            <translation>（没有隐藏的泳道）</translation>
        </message>
        <message>
            <source>Language: %1</source>
            <translation>语言：%1</translation>
        </message>
        <message>
            <source>&amp;Undo %1</source>
            <translation>撤销%1(&amp;U)</translation>
        </message>
        <message>
            <source>&amp;Redo %1</source>
            <translation>重做%1(&amp;R)</translation>
        </message>
        <message>
            <source>W / S</source>
            <translation>W / S</translation>
        </message>
        <message>
            <source>zoom in / out (around the mouse)</source>
            <translation>放大 / 缩小（以鼠标为中心）</translation>
        </message>
        <message>
            <source>A / D</source>
            <translation>A / D</translation>
        </message>
        <message>
            <source>pan left / right</source>
            <translation>向左 / 向右平移</translation>
        </message>
        <message>
            <source>Ctrl+wheel</source>
            <translation>Ctrl+滚轮</translation>
        </message>
        <message>
            <source>zoom around the mouse</source>
            <translation>以鼠标为中心缩放</translation>
        </message>
        <message>
            <source>Shift+wheel</source>
            <translation>Shift+滚轮</translation>
        </message>
        <message>
            <source>pan</source>
            <translation>平移</translation>
        </message>
        <message>
            <source>drag</source>
            <translation>拖动</translation>
        </message>
        <message>
            <source>pan (and scroll lanes)</source>
            <translation>平移（并滚动泳道）</translation>
        </message>
        <message>
            <source>right-drag, Shift+drag, drag on the ruler</source>
            <translation>右键拖动、Shift+拖动、在标尺上拖动</translation>
        </message>
        <message>
            <source>zoom to the dragged interval</source>
            <translation>缩放到拖选的区间</translation>
        </message>
        <message>
            <source>Ctrl+drag</source>
            <translation>Ctrl+拖动</translation>
        </message>
        <message>
            <source>select a time range (its device tasks fill the kernel table)</source>
            <translation>选择时间范围（其中的设备任务会填入算子表格）</translation>
        </message>
        <message>
            <source>click / double-click</source>
            <translation>单击 / 双击</translation>
        </message>
        <message>
            <source>select an event / zoom to it</source>
            <translation>选中事件 / 缩放到该事件</translation>
        </message>
        <message>
            <source>F</source>
            <translation>F</translation>
        </message>
        <message>
            <source>zoom to the selection</source>
            <translation>缩放到所选内容</translation>
        </message>
        <message>
            <source>E, click on a lane's name</source>
            <translation>E、单击泳道名称</translation>
        </message>
        <message>
            <source>Home, double-click on the ruler</source>
            <translation>Home、双击标尺</translation>
        </message>
        <message>
            <source>fit everything</source>
            <translation>显示全部</translation>
        </message>
        <message>
            <source>back / forward in the view history</source>
            <translation>在视图历史中后退 / 前进</translation>
        </message>
        <message>
            <source>Alt+Left / Alt+Right</source>
            <translation>Alt+Left / Alt+Right</translation>
        </message>
        <message>
            <source>Ctrl+Z / Ctrl+Shift+Z</source>
            <translation>Ctrl+Z / Ctrl+Shift+Z</translation>
        </message>
        <message>
            <source>undo / redo the last view change or annotation edit</source>
            <translation>撤销 / 重做上一次视图变更或标注编辑</translation>
        </message>
        <message>
            <source>[ / ]</source>
            <translation>[ / ]</translation>
        </message>
        <message>
            <source>previous / next step</source>
            <translation>上一步 / 下一步</translation>
        </message>
        <message>
            <source>fold / unfold the deeper levels of a lane</source>
            <translation>折叠 / 展开泳道的较深层级</translation>
        </message>
        <message>
            <source>Ctrl+[ / Ctrl+]</source>
            <translation>Ctrl+[ / Ctrl+]</translation>
        </message>
        <message>
            <source>previous / next anomalous step</source>
            <translation>上一个 / 下一个异常步</translation>
        </message>
        <message>
            <source>G</source>
            <translation>G</translation>
        </message>
        <message>
            <source>zoom to the selected step</source>
            <translation>缩放到所选步</translation>
        </message>
        <message>
            <source>Ctrl+F, F3, Shift+F3</source>
            <translation>Ctrl+F, F3, Shift+F3</translation>
        </message>
        <message>
            <source>search, next / previous match</source>
            <translation>搜索、下一个 / 上一个匹配</translation>
        </message>
        <message>
            <source>Ctrl+T</source>
            <translation>Ctrl+T</translation>
        </message>
        <message>
            <source>absolute clock time</source>
            <translation>绝对时钟时间</translation>
        </message>
        <message>
            <source>Ctrl+L</source>
            <translation>Ctrl+L</translation>
        </message>
        <message>
            <source>all flows in view</source>
            <translation>视图内所有关联连线</translation>
        </message>
        <message>
            <source>Esc</source>
            <translation>Esc</translation>
        </message>
        <message>
            <source>clear the selection</source>
            <translation>清除选择</translation>
        </message>
        <message>
            <source>drag the name column's edge</source>
            <translation>拖动名称列的边缘</translation>
        </message>
        <message>
            <source>resize the name column</source>
            <translation>调整名称列宽度</translation>
        </message>
        <message>
            <source>Ctrl+Shift+L</source>
            <translation>Ctrl+Shift+L</translation>
        </message>
        <message>
            <source>filter lanes by name, kind:K, rank:N, -word (Esc clears)</source>
            <translation>按名称、kind:K、rank:N、-词 过滤泳道（Esc 清除）</translation>
        </message>
        <message>
            <source>drag a lane's name</source>
            <translation>拖动泳道名称</translation>
        </message>
        <message>
            <source>move the lane within its group</source>
            <translation>在所在分组内移动该泳道</translation>
        </message>
        <message>
            <source>M</source>
            <translation>M</translation>
        </message>
        <message>
            <source>add a marker at the mouse (or on the Ctrl+dragged range); Markers dock lists them</source>
            <translation>在鼠标处（或按 Ctrl 拖选的范围上）添加标记；“标记”面板列出所有标记</translation>
        </message>
        <message>
            <source>, / .</source>
            <translation>, / .</translation>
        </message>
        <message>
            <source>previous / next marker</source>
            <translation>上一个 / 下一个标记</translation>
        </message>
        <message>
            <source>Shift+click, Shift+click</source>
            <translation>Shift+单击，Shift+单击</translation>
        </message>
        <message>
            <source>measure the time between two points (Esc clears)</source>
            <translation>测量两点之间的时间（Esc 清除）</translation>
        </message>
        <message>
            <source>N / Shift+A / R</source>
            <translation>N / Shift+A / R</translation>
        </message>
        <message>
            <source>annotate: place a note / draw an arrow / highlight a range (Tools menu)</source>
            <translation>标注：放置便签 / 绘制箭头 / 高亮时间范围（工具菜单）</translation>
        </message>
        <message>
            <source>right-click a lane</source>
            <translation>右键单击泳道</translation>
        </message>
        <message>
            <source>pin, hide, move lanes; collapse groups; annotate</source>
            <translation>固定、隐藏、移动泳道；折叠分组；标注</translation>
        </message>
        <message>
            <source>Keyboard and Mouse</source>
            <translation>键盘和鼠标</translation>
        </message>
        <message>
            <source>About DSpark Timeline</source>
            <translation>关于 DSpark Timeline</translation>
        </message>
        <message>
            <source>&lt;b&gt;DSpark Timeline&lt;/b&gt; %1&lt;br&gt;A timeline viewer for profiling SGLang DSpark speculative decoding on Ascend NPUs.</source>
            <translation>&lt;b&gt;DSpark Timeline&lt;/b&gt; %1&lt;br&gt;用于在昇腾 NPU 上分析 SGLang DSpark 投机解码性能的时间线查看器。</translation>
        </message>
        <message>
            <source>&amp;Quit</source>
            <translation>退出(&amp;Q)</translation>
        </message>
        <message>
            <source>Open Profile Folder</source>
            <translation>打开性能数据文件夹</translation>
        </message>
        <message>
            <source>Open Profile File</source>
            <translation>打开性能数据文件</translation>
        </message>
        <message>
            <source>Loading %1…</source>
            <translation>正在加载 %1…</translation>
        </message>
        <message>
            <source>Preparing the demo profile…</source>
            <translation>正在准备演示性能数据…</translation>
        </message>
        <message>
            <source>Cancelling…</source>
            <translation>正在取消…</translation>
        </message>
        <message>
            <source>Loading cancelled</source>
            <translation>已取消加载</translation>
        </message>
        <message>
            <source>%1: cannot be opened</source>
            <translation>%1：无法打开</translation>
        </message>
        <message>
            <source>Cannot open profile</source>
            <translation>无法打开性能数据</translation>
        </message>
        <message>
            <source>%1 — DSpark Timeline</source>
            <translation>%1 — DSpark Timeline</translation>
        </message>
        <message>
            <source>Open every rank of a folder and compare them: clock offsets, late ranks, waits</source>
            <translation>打开文件夹中的每个 rank 并进行比较：时钟偏移、迟到的 rank、等待</translation>
        </message>
        <message>
            <source>Open Cluster Folder</source>
            <translation>打开集群文件夹</translation>
        </message>
        <message>
            <source>Open &amp;Cluster Folder…</source>
            <translation>打开集群文件夹(&amp;C)…</translation>
        </message>
        <message>
            <source>Device tasks of the step</source>
            <translation>该步的设备任务</translation>
        </message>
        <message>
            <source>the selected range</source>
            <translation>所选范围</translation>
        </message>
        <message>
            <source>forward_ct %1</source>
            <translation>forward_ct %1</translation>
        </message>
        <message>
            <source>Details · %1</source>
            <translation>详情 · %1</translation>
        </message>
        <message>
            <source>Search · %1</source>
            <translation>搜索 · %1</translation>
        </message>
        <message>
            <source>Kernels / Events · %1</source>
            <translation>算子 / 事件 · %1</translation>
        </message>
        <message>
            <source>previous / next matched step pair, both runs together (the Matched Pairs dock's)</source>
            <translation>上一个 / 下一个匹配的步对，两次运行一起移动（即“匹配的步对”面板中的步对）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::MarkerActions</name>
        <message>
            <source>Marker %1</source>
            <translation>标记 %1</translation>
        </message>
        <message>
            <source>Add &amp;Marker</source>
            <translation>添加标记(&amp;M)</translation>
        </message>
        <message>
            <source>Mark the mouse position (or the Ctrl+dragged range) with a named marker</source>
            <translation>在鼠标位置（或按 Ctrl 拖选的范围）放置一个带名称的标记</translation>
        </message>
        <message>
            <source>P&amp;revious Marker</source>
            <translation>上一个标记(&amp;R)</translation>
        </message>
        <message>
            <source>Go to the marker before the middle of the view</source>
            <translation>跳转到视图中点之前的标记</translation>
        </message>
        <message>
            <source>Ne&amp;xt Marker</source>
            <translation>下一个标记(&amp;X)</translation>
        </message>
        <message>
            <source>Go to the marker after the middle of the view</source>
            <translation>跳转到视图中点之后的标记</translation>
        </message>
        <message>
            <source>&amp;Markers</source>
            <translation>标记(&amp;M)</translation>
        </message>
        <message>
            <source>Markers</source>
            <translation>标记</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::MarkersPanel</name>
        <message>
            <source>Rename Marker</source>
            <translation>重命名标记</translation>
        </message>
        <message>
            <source>Name:</source>
            <translation>名称：</translation>
        </message>
        <message>
            <source>Marker Colour</source>
            <translation>标记颜色</translation>
        </message>
        <message>
            <source>M: add at the mouse (or the Ctrl+dragged range) · , / .: previous / next · double-click: go there</source>
            <translation>M：在鼠标处添加（或按 Ctrl 拖选的范围）· , / .：上一个 / 下一个 · 双击：跳转到该处</translation>
        </message>
        <message>
            <source>Marker</source>
            <translation>标记</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>Length</source>
            <translation>长度</translation>
        </message>
        <message>
            <source>Rename…</source>
            <translation>重命名…</translation>
        </message>
        <message>
            <source>Colour…</source>
            <translation>颜色…</translation>
        </message>
        <message>
            <source>Delete</source>
            <translation>删除</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::PairTablePanel</name>
        <message>
            <source>Filter by class (mode:bs:verify tokens)</source>
            <translation>按类过滤（mode:bs:verify tokens）</translation>
        </message>
        <message>
            <source>Copy</source>
            <translation>复制</translation>
        </message>
        <message>
            <source>Export…</source>
            <translation>导出…</translation>
        </message>
        <message>
            <source>Open a comparison to see its matched step pairs.</source>
            <translation>打开一个比较以查看其匹配的步对。</translation>
        </message>
        <message>
            <source>Class</source>
            <translation>类</translation>
        </message>
        <message>
            <source>Baseline forward_ct</source>
            <translation>基线 forward_ct</translation>
        </message>
        <message>
            <source>Changed forward_ct</source>
            <translation>变更 forward_ct</translation>
        </message>
        <message>
            <source>%1 (baseline)</source>
            <translation>%1（基线）</translation>
        </message>
        <message>
            <source>%1 (changed)</source>
            <translation>%1（变更）</translation>
        </message>
        <message>
            <source>Δ %1</source>
            <translation>Δ %1</translation>
        </message>
        <message>
            <source>%1: cannot be written (%2)</source>
            <translation>%1：无法写入（%2）</translation>
        </message>
        <message>
            <source>Export Matched Pairs</source>
            <translation>导出匹配的步对</translation>
        </message>
        <message>
            <source>CSV (*.csv);;Markdown (*.md);;JSON (*.json)</source>
            <translation>CSV (*.csv);;Markdown (*.md);;JSON (*.json)</translation>
        </message>
        <message>
            <source>All pairs</source>
            <translation>全部步对</translation>
        </message>
        <message>
            <source>Every step paired within its class (the k-th with the k-th, in time order); unchecked: the median pair of each class</source>
            <translation>每一步都在其类内配对（按时间顺序，第 k 个对第 k 个）；不勾选：每类的中位步对</translation>
        </message>
        <message>
            <source>Every step paired within its workload class: the k-th step of a class in the baseline with the k-th in the changed run, in time order. Click a row, or press [ / ], to show a pair on both timelines.</source>
            <translation>每一步都在其负载类内配对：基线中某类的第 k 步对应变更运行中同类的第 k 步，按时间顺序。点击一行或按 [ / ]，在两条时间线上显示该步对。</translation>
        </message>
        <message>
            <source>One row per workload class in both runs: its median step in each run, their figures and the change. Click a row, or press [ / ], to show the pair on both timelines.</source>
            <translation>两次运行都有的每个负载类一行：各次运行中的中位步、其数值与变化。点击一行或按 [ / ]，在两条时间线上显示该步对。</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::PlainStepsPanel</name>
        <message>
            <source>step %1</source>
            <translation>步 %1</translation>
        </message>
        <message>
            <source>Step</source>
            <translation>步</translation>
        </message>
        <message>
            <source>Rank</source>
            <translation>Rank</translation>
        </message>
        <message>
            <source>Wall</source>
            <translation>墙钟</translation>
        </message>
        <message>
            <source>Device busy</source>
            <translation>设备忙碌</translation>
        </message>
        <message>
            <source>Computing</source>
            <translation>计算</translation>
        </message>
        <message>
            <source>Comm. not overlapped</source>
            <translation>未重叠通信</translation>
        </message>
        <message>
            <source>Free</source>
            <translation>空闲</translation>
        </message>
        <message>
            <source>Path: compute / comm / host / idle</source>
            <translation>路径：计算 / 通信 / 主机 / 空闲</translation>
        </message>
        <message>
            <source>Top kernel</source>
            <translation>最耗时算子</translation>
        </message>
        <message>
            <source>Anomaly</source>
            <translation>异常</translation>
        </message>
        <message>
            <source>Steps: analysing…</source>
            <translation>步：正在分析…</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>步</translation>
        </message>
        <message>
            <source>1 step without DSpark records</source>
            <translation>1 个步（无 DSpark 记录）</translation>
        </message>
        <message>
            <source>%1 steps without DSpark records</source>
            <translation>%1 个步（无 DSpark 记录）</translation>
        </message>
        <message>
            <source>Steps from %1.</source>
            <translation>步来自 %1。</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::RangeStatsPanel</name>
        <message>
            <source>Name</source>
            <translation>名称</translation>
        </message>
        <message>
            <source>Kind</source>
            <translation>类型</translation>
        </message>
        <message>
            <source>Count</source>
            <translation>次数</translation>
        </message>
        <message>
            <source>Total</source>
            <translation>总计</translation>
        </message>
        <message>
            <source>Self</source>
            <translation>自身</translation>
        </message>
        <message>
            <source>Mean</source>
            <translation>平均</translation>
        </message>
        <message>
            <source>Min</source>
            <translation>最小</translation>
        </message>
        <message>
            <source>Max</source>
            <translation>最大</translation>
        </message>
        <message>
            <source>Share of range</source>
            <translation>占范围</translation>
        </message>
        <message>
            <source>Range statistics: Ctrl+drag on the timeline to select a range</source>
            <translation>范围统计：在时间线上 Ctrl+拖动以选择范围</translation>
        </message>
        <message>
            <source>Range statistics of %1: computing…</source>
            <translation>%1的范围统计：正在计算…</translation>
        </message>
        <message>
            <source>Range statistics of %1 (%2)</source>
            <translation>%1的范围统计（%2）</translation>
        </message>
        <message>
            <source>Counter</source>
            <translation>计数器</translation>
        </message>
        <message>
            <source>∫ %1 ·s</source>
            <translation>∫ %1 ·s</translation>
        </message>
        <message>
            <source>Times are the parts inside the range; self = total minus nested children. Double-click a name for its instances, longest first.</source>
            <translation>时间为落在范围内的部分；自身 = 总计减去嵌套的子事件。双击名称可列出其实例，最长的在前。</translation>
        </message>
        <message>
            <source>%1 in %2, longest first</source>
            <translation>%2 中的 %1，最长的在前</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::RankOverview</name>
        <message>
            <source>Rank %1</source>
            <translation>rank %1</translation>
        </message>
        <message>
            <source>Rank %1 (estimated)</source>
            <translation>rank %1（估计）</translation>
        </message>
        <message>
            <source>%1 (loading…)</source>
            <translation>%1（加载中…）</translation>
        </message>
        <message>
            <source>Rank %1, clock offset %2 µs: click or press Enter to fold its lanes</source>
            <translation>rank %1，时钟偏移 %2 µs：单击或按 Enter 折叠其泳道</translation>
        </message>
        <message>
            <source>Rank %1, clock offset %2 µs: click or press Enter to show its lanes</source>
            <translation>rank %1，时钟偏移 %2 µs：单击或按 Enter 展开其泳道</translation>
        </message>
        <message>
            <source>Its summary is older than version 3 and has no activity bins: the strip is estimated from its steps' critical paths and its collectives.</source>
            <translation>其摘要早于版本 3，没有活动分箱：条带根据其各步的关键路径和集合通信估计得出。</translation>
        </message>
        <message>
            <source>Step %1</source>
            <translation>步 %1</translation>
        </message>
        <message>
            <source>Ranks on one clock: %1 shown from %2. Blue: computing, orange: communicating (not overlapped by compute), grey: idle; click a rank to show its lanes.</source>
            <translation>各 rank 在同一时钟上：显示从 %2 起的 %1。蓝色：计算，橙色：通信（未被计算重叠），灰色：空闲；单击一个 rank 展开其泳道。</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::ReportActions</name>
        <message>
            <source>Save Annotations</source>
            <translation>保存标注</translation>
        </message>
        <message>
            <source>Annotations (*.json)</source>
            <translation>标注 (*.json)</translation>
        </message>
        <message>
            <source>Load Annotations</source>
            <translation>加载标注</translation>
        </message>
        <message>
            <source>Clear Annotations</source>
            <translation>清除标注</translation>
        </message>
        <message numerus="yes">
            <source>Remove all %n annotation(s) of this profile?</source>
            <translation>
                <numerusform>删除此性能数据的全部 %n 条标注？</numerusform>
            </translation>
        </message>
        <message>
            <source>&amp;Export Image…</source>
            <translation>导出图像(&amp;E)…</translation>
        </message>
        <message>
            <source>Save the current view or a step as PNG, SVG or PDF with its analyses, legend and annotations</source>
            <translation>将当前视图或某一步连同其分析、图例和标注保存为 PNG、SVG 或 PDF</translation>
        </message>
        <message>
            <source>Copy &amp;Image</source>
            <translation>复制图像(&amp;I)</translation>
        </message>
        <message>
            <source>Copy the current view as an image to the clipboard</source>
            <translation>将当前视图作为图像复制到剪贴板</translation>
        </message>
        <message>
            <source>&amp;Step Table…</source>
            <translation>步表格(&amp;S)…</translation>
        </message>
        <message>
            <source>Save the step table as shown (CSV or Markdown)</source>
            <translation>按当前显示保存步表格（CSV 或 Markdown）</translation>
        </message>
        <message>
            <source>&amp;Kernel Table…</source>
            <translation>算子表格(&amp;K)…</translation>
        </message>
        <message>
            <source>Save the kernel/event table as shown (CSV or Markdown)</source>
            <translation>按当前显示保存算子/事件表格（CSV 或 Markdown）</translation>
        </message>
        <message>
            <source>Stage &amp;Bands</source>
            <translation>阶段条带(&amp;B)</translation>
        </message>
        <message>
            <source>Draft, verify, accept and commit bands of each step</source>
            <translation>每一步的草稿、验证、接受和提交条带</translation>
        </message>
        <message>
            <source>&amp;Communication Brackets</source>
            <translation>通信区间(&amp;C)</translation>
        </message>
        <message>
            <source>Each communication operation from issue to wait; the exposed wait in red</source>
            <translation>每个通信算子从发起到等待的区间；暴露的等待以红色显示</translation>
        </message>
        <message>
            <source>Critical &amp;Path</source>
            <translation>关键路径(&amp;P)</translation>
        </message>
        <message>
            <source>Outline the critical path of each step</source>
            <translation>勾勒出每一步的关键路径</translation>
        </message>
        <message>
            <source>&amp;Annotations</source>
            <translation>标注(&amp;A)</translation>
        </message>
        <message>
            <source>Your notes, arrows and highlighted ranges</source>
            <translation>您的注释、箭头和高亮区间</translation>
        </message>
        <message>
            <source>Add &amp;Note</source>
            <translation>添加注释(&amp;N)</translation>
        </message>
        <message>
            <source>Click on a lane to place a note</source>
            <translation>点击泳道以放置注释</translation>
        </message>
        <message>
            <source>Add &amp;Arrow</source>
            <translation>添加箭头(&amp;A)</translation>
        </message>
        <message>
            <source>Drag from one place to another to draw an arrow</source>
            <translation>从一处拖动到另一处以绘制箭头</translation>
        </message>
        <message>
            <source>Highlight &amp;Range</source>
            <translation>高亮区间(&amp;R)</translation>
        </message>
        <message>
            <source>Drag over a time range (Shift: only the lane)</source>
            <translation>拖选一段时间范围（Shift：仅限当前泳道）</translation>
        </message>
        <message>
            <source>&amp;Edit Selected Annotation…</source>
            <translation>编辑所选标注(&amp;E)…</translation>
        </message>
        <message>
            <source>&amp;Delete Selected Annotation</source>
            <translation>删除所选标注(&amp;D)</translation>
        </message>
        <message>
            <source>&amp;Save Annotations As…</source>
            <translation>标注另存为(&amp;S)…</translation>
        </message>
        <message>
            <source>&amp;Load Annotations…</source>
            <translation>加载标注(&amp;L)…</translation>
        </message>
        <message>
            <source>&amp;Clear All Annotations…</source>
            <translation>清除所有标注(&amp;C)…</translation>
        </message>
        <message>
            <source>Export &amp;Table</source>
            <translation>导出表格(&amp;T)</translation>
        </message>
        <message>
            <source>&amp;Annotate</source>
            <translation>标注(&amp;A)</translation>
        </message>
        <message>
            <source>Step Charts</source>
            <translation>步图表</translation>
        </message>
        <message>
            <source>Copied the view to the clipboard</source>
            <translation>已将视图复制到剪贴板</translation>
        </message>
        <message>
            <source>Export Step Table</source>
            <translation>导出步表格</translation>
        </message>
        <message>
            <source>Export Kernel Table</source>
            <translation>导出算子表格</translation>
        </message>
        <message>
            <source>CSV (*.csv);;Markdown (*.md)</source>
            <translation>CSV (*.csv);;Markdown (*.md)</translation>
        </message>
        <message>
            <source>Wrote %1</source>
            <translation>已写入 %1</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::SearchPanel</name>
        <message>
            <source>Search event names (Ctrl+F)…</source>
            <translation>搜索事件名称（Ctrl+F）…</translation>
        </message>
        <message>
            <source>Regular expression</source>
            <translation>正则表达式</translation>
        </message>
        <message>
            <source>Match case</source>
            <translation>区分大小写</translation>
        </message>
        <message>
            <source>Previous match (Shift+F3)</source>
            <translation>上一个匹配（Shift+F3）</translation>
        </message>
        <message>
            <source>Next match (F3)</source>
            <translation>下一个匹配（F3）</translation>
        </message>
        <message>
            <source>Type a name above: the events that match are listed here</source>
            <translation>在上方输入名称：匹配的事件在此列出</translation>
        </message>
        <message>
            <source>Matches of “%1”</source>
            <translation>“%1”的匹配项</translation>
        </message>
        <message>
            <source>no match</source>
            <translation>无匹配</translation>
        </message>
        <message>
            <source>%1 of %2</source>
            <translation>%1 / %2</translation>
        </message>
        <message>
            <source>%1 matches</source>
            <translation>%1 个匹配</translation>
        </message>
        <message>
            <source> (first %1 listed)</source>
            <translation>（列出前 %1 个）</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::StepBreakdownView</name>
        <message>
            <source>Item</source>
            <translation>项目</translation>
        </message>
        <message>
            <source>Time</source>
            <translation>时间</translation>
        </message>
        <message>
            <source>Share of wall / difference</source>
            <translation>占墙钟时间比例 / 差值</translation>
        </message>
        <message>
            <source>Select an aligned step (step table, chart or timeline) to see where its time went.</source>
            <translation>选择一个已对齐的步（在步表格、图表或时间线中）以查看其时间分布。</translation>
        </message>
        <message>
            <source>critical path</source>
            <translation>关键路径</translation>
        </message>
        <message>
            <source>ms of the step wall (%1)</source>
            <translation>ms（步墙钟时间 %1）</translation>
        </message>
        <message>
            <source>Critical path</source>
            <translation>关键路径</translation>
        </message>
        <message>
            <source>Stage bands (device elapsed)</source>
            <translation>阶段条带（设备耗时）</translation>
        </message>
        <message>
            <source>Planner gap</source>
            <translation>规划器间隙</translation>
        </message>
        <message>
            <source>Planner gap + accept/commit tail</source>
            <translation>规划器间隙 + 接受/提交尾段</translation>
        </message>
        <message>
            <source>Host gap before next step</source>
            <translation>下一步前的主机间隙</translation>
        </message>
        <message>
            <source>Communication</source>
            <translation>通信</translation>
        </message>
        <message>
            <source>Exposed (consumer waited)</source>
            <translation>暴露（消费方等待）</translation>
        </message>
        <message>
            <source>Hidden</source>
            <translation>隐藏</translation>
        </message>
        <message>
            <source>Operations</source>
            <translation>通信算子数</translation>
        </message>
        <message>
            <source>Pre-replay host gap</source>
            <translation>回放前主机间隙</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::StepChartsPanel</name>
        <message>
            <source>Rank:</source>
            <translation>Rank：</translation>
        </message>
        <message>
            <source>Export Chart…</source>
            <translation>导出图表…</translation>
        </message>
        <message>
            <source>Save the shown chart as PNG, SVG or PDF</source>
            <translation>将当前图表保存为 PNG、SVG 或 PDF</translation>
        </message>
        <message>
            <source>Step time</source>
            <translation>步耗时</translation>
        </message>
        <message>
            <source>Communication</source>
            <translation>通信</translation>
        </message>
        <message>
            <source>Critical path</source>
            <translation>关键路径</translation>
        </message>
        <message>
            <source>TPOT / commit length</source>
            <translation>TPOT / 提交长度</translation>
        </message>
        <message>
            <source>Histogram</source>
            <translation>直方图</translation>
        </message>
        <message>
            <source>Selected step</source>
            <translation>所选步</translation>
        </message>
        <message>
            <source> — rank %1</source>
            <translation> — rank %1</translation>
        </message>
        <message>
            <source>Step time by segment (record GPU times)</source>
            <translation>按段划分的步耗时（记录的 GPU 时间）</translation>
        </message>
        <message>
            <source>Step time by segment: no step records</source>
            <translation>按段划分的步耗时：无步记录</translation>
        </message>
        <message>
            <source>Step time by segment: no GPU segment times recorded</source>
            <translation>按段划分的步耗时：未记录 GPU 段时间</translation>
        </message>
        <message>
            <source>Draft</source>
            <translation>草稿</translation>
        </message>
        <message>
            <source>Target verify</source>
            <translation>目标验证</translation>
        </message>
        <message>
            <source>Out of segment</source>
            <translation>段外</translation>
        </message>
        <message>
            <source>Anomalous step</source>
            <translation>异常步</translation>
        </message>
        <message>
            <source>ms</source>
            <translation>ms</translation>
        </message>
        <message numerus="yes">
            <source> (mean of %n steps each)</source>
            <translation>
                <numerusform>（每项为 %n 步的平均）</numerusform>
            </translation>
        </message>
        <message>
            <source>Effective TPOT (GPU) and mean commit length</source>
            <translation>有效 TPOT（GPU）与平均提交长度</translation>
        </message>
        <message>
            <source>Effective TPOT (CPU) and mean commit length</source>
            <translation>有效 TPOT（CPU）与平均提交长度</translation>
        </message>
        <message>
            <source>Effective TPOT (ms)</source>
            <translation>有效 TPOT（ms）</translation>
        </message>
        <message>
            <source>Mean commit length (tokens)</source>
            <translation>平均提交长度（token）</translation>
        </message>
        <message>
            <source>forward_ct</source>
            <translation>forward_ct</translation>
        </message>
        <message>
            <source>TPOT (ms)</source>
            <translation>TPOT（ms）</translation>
        </message>
        <message>
            <source>commit length (tokens)</source>
            <translation>提交长度（token）</translation>
        </message>
        <message>
            <source>Communication per step: exposed vs hidden</source>
            <translation>每步通信：暴露与隐藏</translation>
        </message>
        <message>
            <source>Communication per step: analysing…</source>
            <translation>每步通信：正在分析…</translation>
        </message>
        <message>
            <source>Communication per step: no step aligned to the timeline</source>
            <translation>每步通信：没有与时间线对齐的步</translation>
        </message>
        <message>
            <source>Exposed (consumer waited)</source>
            <translation>暴露（消费方等待）</translation>
        </message>
        <message>
            <source>Hidden (overlapped)</source>
            <translation>隐藏（已重叠）</translation>
        </message>
        <message>
            <source>Critical path by category: no analysed step</source>
            <translation>按类别划分的关键路径：没有已分析的步</translation>
        </message>
        <message>
            <source>Critical path by category (sums to the step wall)</source>
            <translation>按类别划分的关键路径（总和等于步墙钟时间）</translation>
        </message>
        <message>
            <source>Histogram of step times: no step times</source>
            <translation>步耗时直方图：无步耗时数据</translation>
        </message>
        <message>
            <source>Histogram of step times (step GPU)</source>
            <translation>步耗时直方图（步 GPU）</translation>
        </message>
        <message>
            <source>Histogram of step times (step CPU)</source>
            <translation>步耗时直方图（步 CPU）</translation>
        </message>
        <message>
            <source>Steps</source>
            <translation>普通步</translation>
        </message>
        <message>
            <source>Anomalous steps</source>
            <translation>异常步</translation>
        </message>
        <message>
            <source>step time (ms)</source>
            <translation>步耗时（ms）</translation>
        </message>
        <message>
            <source>steps</source>
            <translation>步数</translation>
        </message>
        <message numerus="yes">
            <source>%1–%2 ms: %n step(s)
forward_ct %3</source>
            <translation>
                <numerusform>%1–%2 ms：%n 步
forward_ct %3</numerusform>
            </translation>
        </message>
        <message>
            <source>%1: unknown image type (use .png, .svg or .pdf)</source>
            <translation>%1：未知的图像类型（请使用 .png、.svg 或 .pdf）</translation>
        </message>
        <message>
            <source>Export Chart</source>
            <translation>导出图表</translation>
        </message>
        <message>
            <source>PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)</source>
            <translation>PNG 图像 (*.png);;SVG 图像 (*.svg);;PDF 文档 (*.pdf)</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::StepTablePanel</name>
        <message>
            <source>Filter steps…</source>
            <translation>过滤步…</translation>
        </message>
        <message>
            <source>Anomalous only</source>
            <translation>仅异常</translation>
        </message>
        <message>
            <source>Show only the steps flagged as anomalous (highlighted in red)</source>
            <translation>仅显示标记为异常的步（红色高亮）</translation>
        </message>
        <message>
            <source>No DSpark step records. Open a folder that holds server_info JSON or step-record JSON Lines next to the profiler output to see the step table.</source>
            <translation>没有 DSpark 步记录。请打开在 profiler 输出旁含有 server_info JSON 或步记录 JSON Lines 的文件夹，以查看步表格。</translation>
        </message>
        <message>
            <source>Attach anyway</source>
            <translation>仍然关联</translation>
        </message>
        <message>
            <source>Place the records on the timeline by the alignment found, although they do not agree with it: stage bands, critical path and per-step analyses are then drawn for them</source>
            <translation>按找到的对齐把记录放到时间线上（尽管它们与之不一致）：随后会为它们绘制阶段带、关键路径和逐步分析</translation>
        </message>
        <message>
            <source>%1. The steps are listed but not placed on the timeline: no stage bands, critical path or per-step analysis is drawn for them.</source>
            <translation>%1。这些步已列出，但未放到时间线上：不为它们绘制阶段带、关键路径或逐步分析。</translation>
        </message>
        <message>
            <source>steps: %1</source>
            <translation>步：%1</translation>
        </message>
        <message>
            <source>steps: %1 of %2</source>
            <translation>步：%1 / %2</translation>
        </message>
        <message>
            <source>, anomalous: %1</source>
            <translation>，异常：%1</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::SummaryDocks</name>
        <message>
            <source>the whole profile</source>
            <translation>整个性能数据</translation>
        </message>
        <message>
            <source>%1 · %2</source>
            <translation>%1 · %2</translation>
        </message>
        <message>
            <source>Range Statistics</source>
            <translation>范围统计</translation>
        </message>
        <message>
            <source>Kernel Summary</source>
            <translation>算子汇总</translation>
        </message>
        <message>
            <source>Profiler Steps</source>
            <translation>性能采集步</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::SummaryPanel</name>
        <message>
            <source>Filter by name…</source>
            <translation>按名称过滤…</translation>
        </message>
        <message>
            <source>Copy CSV</source>
            <translation>复制 CSV</translation>
        </message>
        <message>
            <source>Copy the shown rows, sorted and filtered, as CSV</source>
            <translation>将当前显示的行（已排序和过滤）复制为 CSV</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::TimeRuler</name>
        <message>
            <source>Drag to zoom to an interval; double-click to fit everything</source>
            <translation>拖动以缩放到某区间；双击以显示全部</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::TimelineView</name>
        <message>
            <source>frame %1 ms</source>
            <translation>帧 %1 ms</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 lanes — click to collapse or expand</source>
            <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 条泳道 — 点击折叠或展开</translation>
        </message>
        <message>
            <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3&lt;br&gt;%4 events, nesting depth %5</source>
            <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3&lt;br&gt;%4 个事件，嵌套深度 %5</translation>
        </message>
        <message>
            <source>&lt;br&gt;value %1 at %2</source>
            <translation>&lt;br&gt;%2 处的值为 %1</translation>
        </message>
        <message>
            <source>&lt;br&gt;%1 · starts at %2 · %3</source>
            <translation>&lt;br&gt;%1 · 开始于 %2 · %3</translation>
        </message>
        <message>
            <source> (stream %1)</source>
            <translation>（流 %1）</translation>
        </message>
        <message>
            <source>&lt;br&gt;&lt;i&gt;%1 events share this pixel — zoom in to see them&lt;/i&gt;</source>
            <translation>&lt;br&gt;&lt;i&gt;%1 个事件位于同一像素 — 放大以查看&lt;/i&gt;</translation>
        </message>
        <message>
            <source>&lt;br&gt;… %1 more in the details pane</source>
            <translation>&lt;br&gt;… 另有 %1 个，见详情面板</translation>
        </message>
        <message>
            <source>&lt;br&gt;links: %1 outgoing, %2 incoming</source>
            <translation>&lt;br&gt;关联：%1 条出向，%2 条入向</translation>
        </message>
    </context>
    <context>
        <name>dspark::ui::TimelineWidget</name>
        <message>
            <source>Drag to zoom to an interval; double-click to fit everything</source>
            <translation>拖动以缩放到某区间；双击以显示全部</translation>
        </message>
    </context>
</TS>
