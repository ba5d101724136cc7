// The job runs agents work on, as the agent endpoint needs them on every call about one: the job's ids
// (run, project), names for metrics, and its secret masker (kit's log masker over the job's secret values),
// which masks the log lines, errors and test output an agent sends. The dispatcher remembers a job here when
// it hands it out (the masker comes with the assignment it built); a job this process did not hand out — it
// restarted, or another replica assigned it — is rebuilt from the store on first use. Bounded: the oldest
// entry goes first.
import { createMasker, type MaskFn, noMask } from '@app/kit';
import type { AssignmentBuilder } from './assignment-builder.js';

export interface JobRef {
  jobRunId: string;
  runId: string;
  projectId: string;
  jobName: string;
}

/** What the agent endpoint needs to know about a job run an agent works on. */
export interface ActiveJob {
  ref: JobRef;
  mask: MaskFn;
  pipeline: string;
  project: string;
  projectSlug: string;
}

/** The context an assignment was built in (assignment-builder.ts), as much of it as is kept here. */
interface BuiltContext {
  runId: string;
  projectId: string;
  jobName: string;
  pipelineName: string;
  projectSlug: string;
}

const ACTIVE_CACHE = 10_000;

export class ActiveJobs {
  private readonly active = new Map<string, ActiveJob>();

  constructor(private readonly builder: Pick<AssignmentBuilder, 'build'>) {}

  /** A job just handed out, with the secret values its masker hides. */
  remember(jobRunId: string, ctx: BuiltContext, secretValues: string[]): void {
    this.keep(jobRunId, ActiveJobs.entry(jobRunId, ctx, createMasker(secretValues)));
  }

  /** The job left its agent: its entry goes (a late call rebuilds it from the store). */
  forget(jobRunId: string): void {
    this.active.delete(jobRunId);
  }

  /** Context and masker of a job run an agent works on (rebuilt from the store after a restart). */
  async get(jobRunId: string): Promise<ActiveJob | undefined> {
    const known = this.active.get(jobRunId);
    if (known) return known;
    const built = await this.builder.build(jobRunId);
    if (!built.context) return undefined;
    const info = ActiveJobs.entry(
      jobRunId,
      built.context,
      built.ok ? createMasker(built.secretValues) : noMask,
    );
    this.keep(jobRunId, info);
    return info;
  }

  private static entry(jobRunId: string, ctx: BuiltContext, mask: MaskFn): ActiveJob {
    return {
      ref: { jobRunId, runId: ctx.runId, projectId: ctx.projectId, jobName: ctx.jobName },
      mask,
      pipeline: ctx.pipelineName,
      project: ctx.projectSlug,
      projectSlug: ctx.projectSlug,
    };
  }

  private keep(jobRunId: string, info: ActiveJob): void {
    if (this.active.size >= ACTIVE_CACHE) {
      const oldest = this.active.keys().next().value;
      if (oldest !== undefined) this.active.delete(oldest);
    }
    this.active.set(jobRunId, info);
  }
}
