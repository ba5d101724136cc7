// The chat messages of the bot flow (database-portal.md Events 2), as Slack Block Kit payloads: the review
// announcement (with Approve and Reject buttons when interactions can be verified), the decided state that
// replaces it, and the outcome posted into the thread (ten rows at most). Pure; every text is bounded.
import type { BotRequest, ExecutionOutcome } from '../bot/types.js';

/** `action_id`s of the two buttons; the button `value` is the bot request id. */
export const APPROVE_ACTION = 'portal_approve';
export const REJECT_ACTION = 'portal_reject';

export const OUTCOME_ROWS = 10;
const SECTION_MAX = 2900;
const CELL_MAX = 60;

/** Chat markup: `&`, `<`, `>` are control characters and must be escaped in any text we did not write. */
export function escapeChat(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cut(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

function codeBlock(s: string): string {
  // A triple backtick inside would close the block early.
  return `\`\`\`${cut(escapeChat(s).replace(/```/g, '`\u200b``'), SECTION_MAX - 8)}\`\`\``;
}

const section = (text: string) => ({
  type: 'section',
  text: { type: 'mrkdwn', text: cut(text, SECTION_MAX) },
});
const context = (text: string) => ({
  type: 'context',
  elements: [{ type: 'mrkdwn', text: cut(text, 2000) }],
});

export interface AnnounceContext {
  request: BotRequest;
  datasourceName: string;
  approvalsRequired: number;
  /** Buttons only when CHAT_SIGNING_SECRET is set (otherwise a press could not be verified). */
  interactive: boolean;
}

function why(r: BotRequest): string {
  if (r.guardrail) return `guardrail \`${r.guardrail}\``;
  if (r.hold === 'review') return 'review requested';
  if (r.hold === 'token') return 'this service token always needs approval';
  return 'write approval';
}

export function announcement(a: AnnounceContext): { text: string; blocks: unknown[] } {
  const r = a.request;
  const head = `Review needed on *${escapeChat(a.datasourceName)}* for ${escapeChat(r.onBehalfOf)} (${why(r)})`;
  const blocks: unknown[] = [section(head), section(codeBlock(r.statement))];
  if (r.reviewReason) blocks.push(section(`*Reason:* ${escapeChat(r.reviewReason)}`));
  const facts = [
    `request \`${r.id}\``,
    `via ${escapeChat(r.tokenName)}`,
    `${a.approvalsRequired} approval${a.approvalsRequired === 1 ? '' : 's'} needed`,
  ];
  if (r.ticket) facts.push(`ticket ${escapeChat(r.ticket)}`);
  blocks.push(context(facts.join(' · ')));
  if (a.interactive) {
    blocks.push({
      type: 'actions',
      block_id: `portal_review:${r.id}`,
      elements: [
        {
          type: 'button',
          action_id: APPROVE_ACTION,
          style: 'primary',
          text: { type: 'plain_text', text: 'Approve' },
          value: r.id,
        },
        {
          type: 'button',
          action_id: REJECT_ACTION,
          style: 'danger',
          text: { type: 'plain_text', text: 'Reject' },
          value: r.id,
        },
      ],
    });
  }
  return { text: `Review needed on ${a.datasourceName}: ${cut(r.statement, 200)}`, blocks };
}

/** Replaces the announcement once the request is decided: same facts, no buttons. */
export function decided(a: AnnounceContext, state: string): { text: string; blocks: unknown[] } {
  const base = announcement({ ...a, interactive: false });
  return {
    text: `${state}: ${base.text}`,
    blocks: [...base.blocks, context(escapeChat(state))],
  };
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return cut(s.replace(/\s+/g, ' '), CELL_MAX);
}

/** Up to ten rows as an aligned text table (values were masked on the server before they got here). */
export function rowsTable(fields: string[], rows: Record<string, unknown>[]): string {
  const shown = rows.slice(0, OUTCOME_ROWS).map((r) => fields.map((f) => cell(r[f])));
  const widths = fields.map((f, i) => Math.max(cut(f, CELL_MAX).length, ...shown.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  return [
    line(fields.map((f) => cut(f, CELL_MAX))),
    widths.map((w) => '-'.repeat(w)).join('-+-'),
    ...shown.map(line),
  ].join('\n');
}

function outcomeLine(e: ExecutionOutcome, r: BotRequest): string {
  if (e.status === 'failed') return `:x: Failed (${e.error ?? 'error'}) after ${e.durationMs} ms`;
  const script = r.outcome?.statements ? `${r.outcome.executedCount ?? 0} statement(s), ` : '';
  return `:white_check_mark: Done: ${script}${e.rowCount} row(s) in ${e.durationMs} ms`;
}

/** The outcome posted into the thread: executed (with ≤ 10 rows) or rejected/expired. */
export function outcome(r: BotRequest, datasourceName: string): { text: string; blocks: unknown[] } {
  const who = `request \`${r.id}\` on *${escapeChat(datasourceName)}* for ${escapeChat(r.onBehalfOf)}`;
  if (r.status === 'rejected') {
    const text = r.rejection === 'expired' ? 'Expired without a decision' : 'Rejected';
    return { text: `${text}: ${r.id}`, blocks: [section(`:no_entry: ${text}: ${who}`)] };
  }
  const e = r.outcome?.execution;
  if (!e) return { text: `Approved: ${r.id}`, blocks: [section(`Approved: ${who}`)] };
  const blocks: unknown[] = [section(`${outcomeLine(e, r)} — ${who}`)];
  if (e.fields.length > 0 && e.rows.length > 0) {
    blocks.push(section(codeBlock(rowsTable(e.fields, e.rows))));
    const more = e.rows.length > OUTCOME_ROWS || e.truncated;
    if (more)
      blocks.push(context(`First ${OUTCOME_ROWS} rows shown; the full result is on the execution record.`));
  }
  return { text: `${e.status === 'done' ? 'Done' : 'Failed'}: ${r.id}`, blocks };
}
