// Forward-only schema migrations of the control plane's store, identical on SQLite and PostgreSQL.
// One file per migration; append new entries in name order and never edit one that has shipped.
import type { Migrations } from '@app/kit';
import { m0001ServerSettings } from './0001_server_settings.js';
import { m0002Core } from './0002_core.js';
import { m0003Auth } from './0003_auth.js';
import { m0004Agents } from './0004_agents.js';
import { m0005ExecutionData } from './0005_execution_data.js';
import { m0006Triggers } from './0006_triggers.js';
import { m0007ProjectSettings } from './0007_project_settings.js';
import { m0009Operations } from './0009_operations.js';
import { m0010AgentIdentity } from './0010_agent_identity.js';
import { m0012ForkRuns } from './0012_fork_runs.js';
import { m0013JobEngine } from './0013_job_engine.js';
import { m0014JobOutputs } from './0014_job_outputs.js';
import { m0015RunTriggerEvent } from './0015_run_trigger_event.js';
import { m0016RunConcurrency } from './0016_run_concurrency.js';
import { m0017NotifyAndLabels } from './0017_notify_and_labels.js';
import { m0018StageJobCounts } from './0018_stage_job_counts.js';
import { m0019RunDefinitionError } from './0019_run_definition_error.js';

export const migrations: Migrations = {
  '0001_server_settings': m0001ServerSettings,
  '0002_core': m0002Core,
  '0003_auth': m0003Auth,
  '0004_agents': m0004Agents,
  '0005_execution_data': m0005ExecutionData,
  '0006_triggers': m0006Triggers,
  '0007_project_settings': m0007ProjectSettings,
  '0009_operations': m0009Operations,
  '0010_agent_identity': m0010AgentIdentity,
  '0012_fork_runs': m0012ForkRuns,
  '0013_job_engine': m0013JobEngine,
  '0014_job_outputs': m0014JobOutputs,
  '0015_run_trigger_event': m0015RunTriggerEvent,
  '0016_run_concurrency': m0016RunConcurrency,
  '0017_notify_and_labels': m0017NotifyAndLabels,
  '0018_stage_job_counts': m0018StageJobCounts,
  '0019_run_definition_error': m0019RunDefinitionError,
};
