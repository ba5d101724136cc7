// Carries an agent's job reports (started, finished, rejected) to the control plane: the reports the worker
// makes in one turn of the event loop go together (turn-batcher.ts) in one message on the session stream
// (session-reports.ts), where the control plane offered that at registration — no call per report. A job that
// starts reports at once, and so does one that ends; under a burst of short jobs the starts and ends of
// several of the agent's slots fall in the same turns and travel together. Nothing waits for company: a lone
// report leaves on the next turn. Retrying is the single call's: a report the stream could not deliver, or
// that the control plane refused for a passing reason (its database unreachable), is sent again alone with
// ReportJob within the report's own retry window; a lasting refusal (the job is not this agent's, the report
// is malformed) is the sender's answer. A control plane that does not take reports on the session gets each
// with ReportJob.
import { isTransient } from './connection.js';
import type { JobReportInit } from './session-reports.js';
import { type ItemResult, TurnBatcher } from './turn-batcher.js';

export type { JobReportInit };

/** A report and how long it may be retried alone while the control plane is unreachable. */
export interface CourierReport {
  report: JobReportInit;
  retryMs: number;
}

/** The calls a report courier makes (the worker binds them to its AgentConnection). */
export interface ReportCalls {
  /** The session stream, tried once: one result per report, in order (UNIMPLEMENTED where it is not offered). */
  many(reports: JobReportInit[]): Promise<{ code: number; message: string }[]>;
  /** ReportJob, retried within `retryMs`. */
  one(report: JobReportInit, retryMs: number): Promise<void>;
  /** Which session the reports go to: ReportJob is used for a session that does not take them on its stream. */
  session?(): string | undefined;
}

/** Reports of one message at most (the control plane takes up to 1,024). */
const MAX_CALL_REPORTS = 256;

export class ReportCourier {
  private readonly batcher: TurnBatcher<CourierReport, void>;

  constructor(calls: ReportCalls) {
    this.batcher = new TurnBatcher({
      many: async (items): Promise<ItemResult<void>[]> => calls.many(items.map((i) => i.report)),
      one: (item) => calls.one(item.report, item.retryMs),
      session: () => calls.session?.(),
      maxItems: MAX_CALL_REPORTS,
      alone: isTransient,
    });
  }

  /** Sent: messages on the session stream, ReportJob calls; reports carried. */
  get stats() {
    const { many, one, items } = this.batcher.stats;
    return { many, one, reports: items };
  }

  /** Sends one report with the others of this turn; resolves once the control plane has taken it. */
  send(report: JobReportInit, retryMs: number): Promise<void> {
    return this.batcher.send({ report, retryMs });
  }
}
