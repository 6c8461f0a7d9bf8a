#pragma once

// Every name the demo simulator writes (docs/demo.md is the contract; keep both in step).
namespace dspark::demo::names {

// ---- host: PYTORCH_API spans ----
inline constexpr const char* RunBatch = "scheduler.run_batch";
inline constexpr const char* PrepareDecode = "ScheduleBatch.prepare_for_decode";
inline constexpr const char* PrepareExtend = "ScheduleBatch.prepare_for_extend";
inline constexpr const char* ProcessBatchResult = "scheduler.process_batch_result";
inline constexpr const char* RecvRequests = "scheduler.recv_requests";
inline constexpr const char* RecordStepStart = "dspark_observability.record[STEP:start]";
inline constexpr const char* RecordStepEnd = "dspark_observability.record[STEP:end]";
inline constexpr const char* RecordDraftStart = "dspark_observability.record[DRAFT:start]";
inline constexpr const char* RecordDraftEnd = "dspark_observability.record[DRAFT:end]";
inline constexpr const char* RecordVerifyStart = "dspark_observability.record[TARGET_VERIFY:start]";
inline constexpr const char* RecordVerifyEnd = "dspark_observability.record[TARGET_VERIFY:end]";
inline constexpr const char* DrainPending = "dspark_observability.drain_pending";
inline constexpr const char* DraftPass = "dspark.draft_pass[%1]";      // %1 = pass index
inline constexpr const char* DraftDecode = "draft step[DECODE bs=%1]"; // %1 = bs
inline constexpr const char* DraftExtend = "draft step[EXTEND bs=%1]";
inline constexpr const char* VerifyForward = "step[TARGET_VERIFY bs=%1 g_sq=%2 g_sqsq=%3 g_sqsk=%4 g_sk=%5]";
inline constexpr const char* ExtendForward = "step[EXTEND bs=%1 g_sq=%2 g_sqsq=%3 g_sqsk=%4 g_sk=%5]";
inline constexpr const char* DispatchA = "DeepEPDispatcher.dispatch_a";
inline constexpr const char* DispatchB = "DeepEPDispatcher.dispatch_b";
inline constexpr const char* CombineA = "DeepEPDispatcher.combine_a";
inline constexpr const char* CombineB = "DeepEPDispatcher.combine_b";
inline constexpr const char* SharedExperts = "DeepseekV4MoE.shared_experts[alt_stream]";
inline constexpr const char* VerifyPlanner = "dspark.verify_planner";
inline constexpr const char* ForwardBatchPrepare = "ForwardBatch.prepare";
inline constexpr const char* SelectBucket = "NPUGraphRunner.select_bucket";
inline constexpr const char* RefreshBuffers = "NPUGraphRunner.refresh_buffers";
inline constexpr const char* InitForwardMetadata = "AscendDSV4Backend.init_forward_metadata";
inline constexpr const char* GraphReplay = "NPUGraph.replay";
inline constexpr const char* AcceptAndFinalize = "dspark.accept_and_finalize";
inline constexpr const char* AcceptDraftTokensSpan = "accept_draft_tokens";
inline constexpr const char* SpecTpSyncSpan = "SpecTpSync";
inline constexpr const char* FinalizeAcceptLensSpan = "FinalizeAcceptLens";
inline constexpr const char* BuildOutTokensSpan = "BuildOutTokens";
inline constexpr const char* CommitHidden = "dspark.commit_hidden";
inline constexpr const char* PublishOutTokens = "dspark.publish_out_tokens";
inline constexpr const char* TorchRecordEvent = "npu::record_event";
inline constexpr const char* TorchWaitEvent = "npu::wait_event";
inline constexpr const char* TorchCopy = "aten::copy_";

// ---- host: CANN_API ----
inline constexpr const char* Launch = "launch";
inline constexpr const char* RecordEvent = "aclrtRecordEvent";
inline constexpr const char* StreamWaitEvent = "aclrtStreamWaitEvent";
inline constexpr const char* MemcpyAsync = "aclrtMemcpyAsync";
inline constexpr const char* ModelExecute = "aclmdlRIExecuteAsync";
inline constexpr const char* HcclAllReduce = "HcclAllReduce";
inline constexpr const char* SynchronizeStream = "aclrtSynchronizeStream";
inline constexpr const char* SynchronizeEvent = "aclrtSynchronizeEvent";

// CANN_API.type (ENUM_API_TYPE ids, as in the fixture)
inline constexpr int ApiRuntime = 5000;
inline constexpr int ApiHccl = 5500;
inline constexpr int ApiNode = 10000;
inline constexpr int ApiModel = 15000;
inline constexpr int ApiAcl = 20000;
inline constexpr int TorchOpType = 50001;

// ---- device ----
inline constexpr int StreamProfiler = 0;
inline constexpr int StreamCompute = 2;
inline constexpr int StreamSharedExpert = 3;
inline constexpr int StreamDeepEp = 5;
inline constexpr int StreamHccl = 7;

// HCCL (SpecTpSync)
inline constexpr const char* SpecTpSyncOp = "hcom_allReduce__SpecTpSync_%1"; // %1 = forward_ct
inline constexpr const char* HcclOpType = "hcom_allReduce_";
inline constexpr const char* TpGroup = "10.20.0.1%eth0_60000_0_1767254400000000";
inline constexpr const char* HcclAlg = "MESH-ONESHOT";

// Run identity (fixed: no host name, pid or clock of the machine running the simulator)
inline constexpr const char* HostName = "dspark-demo-910c";
inline constexpr int Pid = 2837461;
inline constexpr const char* RunFolder = "dspark-demo-910c_2837461_20260101080000000_ascend_pt";
inline constexpr long long SessionBaseNs = 1767254400000000000LL; // 2026-01-01 08:00:00 UTC

} // namespace dspark::demo::names
