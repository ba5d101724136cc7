// Job reports on the session stream (report-courier.ts sends a turn's reports this way when the control plane
// offered it at registration): each message gets an id, and the answer that names it settles it. No call per
// turn of reports — the stream is held open anyway. A message the session cannot answer — the stream ended,
// the queue to it is full, or no answer came in time — fails with a passing refusal (UNAVAILABLE or
// DEADLINE_EXCEEDED), so the courier sends its reports again alone by ReportJob, which waits for a session
// and retries. The control plane takes a report sent twice as it takes a retried ReportJob.
import type {
  AgentMessageSchema,
  JobReportResult,
  JobReportSchema,
  SessionReportResults,
} from '@app/ci-proto';
import type { AsyncQueue } from '@app/kit';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';

type AgentMessageInit = MessageInitShape<typeof AgentMessageSchema>;
export type JobReportInit = MessageInitShape<typeof JobReportSchema>;

/** How long an answer may take: as long as a ReportJob call may (a finish waits for the job's last lines). */
const ANSWER_TIMEOUT_MS = 120_000;

interface Pending {
  resolve(results: JobReportResult[]): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
}

/** One session's reports: sent on its outbound queue, answered on its stream. */
export class SessionReports {
  private nextId = 1n;
  private readonly pending = new Map<bigint, Pending>();

  constructor(private readonly outbound: AsyncQueue<AgentMessageInit>) {}

  /** Sends the reports; resolves with one result per report, in order. */
  send(reports: JobReportInit[]): Promise<JobReportResult[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.outbound.push({ kind: { case: 'reports', value: { id, reports } } })) {
        reject(new ConnectError('the session cannot take more messages now', Code.Unavailable));
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(
          new ConnectError('the control plane did not answer the reports in time', Code.DeadlineExceeded),
        );
      }, ANSWER_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  /** An answer from the stream. */
  answered(answer: SessionReportResults): void {
    const p = this.pending.get(answer.id);
    if (!p) return;
    this.pending.delete(answer.id);
    clearTimeout(p.timer);
    p.resolve(answer.results);
  }

  /** The session ended: what is unanswered fails, to be sent again by ReportJob. */
  end(): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      p.reject(new ConnectError('the session ended before the control plane answered', Code.Unavailable));
    }
    this.pending.clear();
  }
}
