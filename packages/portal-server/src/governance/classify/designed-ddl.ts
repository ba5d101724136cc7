// An exact token grammar for the DDL the table designer writes, on engines whose SQL grammars do not read it
// (SQL Server, Oracle: their descriptors carry `designedDdl` forms). A statement that is wholly one of these
// forms — CREATE TABLE with column definitions and constraints, CREATE [UNIQUE] INDEX … ON t (…), ALTER TABLE
// ADD / DROP COLUMN / DROP CONSTRAINT / the engine's column change and renames — is a plain DDL write by its
// effect. It is read positively, token by token, to the last token: a call or expression anywhere (a
// default, a computed column, a CHECK, an index expression), a type outside the designer's list, a quoted
// name where a keyword belongs, a name that reads as a keyword or a system routine, `@` (a database link or
// variable), a comment, more than two name parts: the grammar does not match and the statement stays the
// unverifiable write it was.
import type { DesignedDdlForms } from '../../providers/classifier-rules.js';
import type { LexResult, Token } from './lexer.js';
import { addObject } from './objects.js';
import { type Analysis, emptyAnalysis, type ObjectRef } from './types.js';

/** The designer's names (sql/table-ddl.ts NAME): letters, digits, `_`, `$`, `-`, spaces; no leading digit. */
const NAME = /^[\p{L}_][\p{L}\p{N}_ $-]{0,127}$/u;
/**
 * Words no name may be (nor hold, quoted, as one of its words): this grammar's keywords, statement heads,
 * and what runs code. A real column called `default` or `exec` is held for a reviewer as before.
 */
const KEYWORDS = new Set(
  `ADD ALTER AS ASC BEGIN CALL CASCADE CHECK COLLATE COLUMN CONSTRAINT CREATE DECLARE DEFAULT DELETE DESC DROP
  END EXEC EXECUTE FOREIGN FROM GO GRANT IDENTITY IMMEDIATE INDEX INSERT INTO KEY MERGE MODIFY NOT NULL ON
  OPENDATASOURCE OPENQUERY OPENROWSET OPENXML PRIMARY PROCEDURE REFERENCES RENAME REVOKE SELECT SET TABLE TO
  TRUNCATE UNIQUE UPDATE WITH`.split(/\s+/),
);
/** System routines and packages (`sp_`, `xp_`, Oracle's `DBMS_`, `UTL_`): never a designed name. */
const SYSTEM_PREFIX = /^(?:sp_|xp_|dbms_|utl_)/i;
const ACTIONS = [['CASCADE'], ['NO', 'ACTION'], ['SET', 'NULL'], ['SET', 'DEFAULT'], ['RESTRICT']];

/** Thrown inside the grammar when the statement leaves its forms; caught by the entry point. */
class NoMatch extends Error {}

class Cursor {
  k = 0;
  constructor(
    readonly tokens: readonly Token[],
    readonly forms: DesignedDdlForms,
    /** The statement's code (no comments: the grammar refuses them), to tell '…' from q'[…]' strings. */
    readonly code: string,
  ) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.k + offset];
  }
  isWord(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.kind === 'word' && t.value === v;
  }
  isOp(v: string, offset = 0): boolean {
    const t = this.peek(offset);
    return t?.kind === 'op' && t.value === v;
  }
  /** Takes the keywords `vs` in order when they are next; false (nothing taken) otherwise. */
  accept(...vs: string[]): boolean {
    if (!vs.every((v, i) => this.isWord(v, i))) return false;
    this.k += vs.length;
    return true;
  }
  expect(...vs: string[]): void {
    if (!this.accept(...vs)) throw new NoMatch();
  }
  op(v: string): void {
    if (!this.isOp(v)) throw new NoMatch();
    this.k++;
  }
  /** Takes a `,` when it is next. */
  comma(): boolean {
    if (!this.isOp(',')) return false;
    this.k++;
    return true;
  }
  done(): boolean {
    return this.k >= this.tokens.length;
  }

  /** One name part: a plain word or a quoted identifier of the designer's shape, neither keyword nor routine. */
  ident(): string {
    const t = this.peek();
    if (!t || (t.kind !== 'word' && t.kind !== 'qident')) throw new NoMatch();
    const words = t.value.toUpperCase().split(/[\s$-]+/);
    if (!NAME.test(t.value) || SYSTEM_PREFIX.test(t.value) || words.some((w) => KEYWORDS.has(w)))
      throw new NoMatch();
    if (t.kind === 'word' && !/^[A-Z_][A-Z0-9_$]*$/.test(t.value)) throw new NoMatch();
    this.k++;
    return t.kind === 'word' ? t.value.toLowerCase() : t.value;
  }

  /** `[schema.]name`: at most two parts (a third would reach another database). */
  object(access: ObjectRef['access']): ObjectRef {
    const parts = [this.ident()];
    if (this.isOp('.')) {
      this.k++;
      parts.push(this.ident());
    }
    const ref: ObjectRef = { name: parts[parts.length - 1], access };
    if (parts.length === 2) ref.schema = parts[0];
    return ref;
  }

  /** `( a [ASC|DESC], … )`: column names only, never an expression. */
  columns(ordered: boolean): void {
    this.op('(');
    do {
      this.ident();
      if (ordered) this.accept('ASC') || this.accept('DESC');
    } while (this.comma());
    this.op(')');
  }

  /** One of the designer's types: its words, then `(n)` or `(p, s)` of plain integers. */
  type(): void {
    const options = this.forms.columnTypes
      .map((t) => t.toUpperCase().split(/\s+/))
      .filter((ws) => ws.every((w, i) => this.isWord(w, i)))
      .sort((a, b) => b.length - a.length);
    if (options.length === 0) throw new NoMatch();
    this.k += options[0].length;
    if (!this.isOp('(')) return;
    this.k++;
    this.integer();
    if (this.isOp(',')) {
      this.k++;
      this.integer();
    }
    this.op(')');
  }

  integer(): void {
    const t = this.peek();
    if (t?.kind !== 'number' || !/^\d{1,5}$/.test(t.value)) throw new NoMatch();
    this.k++;
  }

  /** A DEFAULT's value: a string, a signed decimal number, NULL or one of the engine's default keywords. */
  defaultValue(): void {
    const t = this.peek();
    const next = this.peek(1);
    // Plain '…' only: no q'[…]' or other alternative quoting.
    const plain = (s: Token | undefined) => s?.kind === 'string' && this.code[s.start] === "'";
    if (plain(t)) this.k++;
    else if (
      this.forms.nationalStrings &&
      t?.kind === 'word' &&
      t.value === 'N' &&
      plain(next) &&
      next?.start === t.end
    )
      this.k += 2;
    else if (t?.kind === 'op' && (t.value === '-' || t.value === '+') && next?.kind === 'number') {
      this.k++;
      this.decimal();
    } else if (t?.kind === 'number') this.decimal();
    else if (t?.kind === 'word' && (t.value === 'NULL' || this.forms.defaultKeywords.includes(t.value)))
      this.k++;
    else throw new NoMatch();
  }

  decimal(): void {
    const t = this.peek();
    if (t?.kind !== 'number' || !/^\d+(?:\.\d+)?(?:e[+-]?\d+)?$/i.test(t.value)) throw new NoMatch();
    this.k++;
  }

  /** `REFERENCES t (cols) [ON DELETE|UPDATE action]…`: the referenced table is read. */
  references(a: Analysis): void {
    this.expect('REFERENCES');
    addObject(a.objects, this.object('read'));
    this.columns(false);
    while (this.accept('ON')) {
      if (!this.accept('DELETE') && !this.accept('UPDATE')) throw new NoMatch();
      if (!ACTIONS.some((words) => this.accept(...words))) throw new NoMatch();
    }
  }

  /** `[CONSTRAINT n] PRIMARY KEY (…) | UNIQUE (…) | FOREIGN KEY (…) REFERENCES …`; false when none starts here. */
  tableConstraint(a: Analysis): boolean {
    const named = this.isWord('CONSTRAINT');
    if (named) {
      this.k++;
      this.ident();
    }
    if (this.accept('PRIMARY', 'KEY') || this.accept('UNIQUE')) this.columns(true);
    else if (this.accept('FOREIGN', 'KEY')) {
      this.columns(false);
      this.references(a);
    } else if (named) throw new NoMatch();
    else return false;
    return true;
  }

  /** `name type [NOT NULL | NULL | DEFAULT v | PRIMARY KEY | UNIQUE]…`. */
  column(): void {
    this.ident();
    this.type();
    this.columnOptions();
  }

  columnOptions(): void {
    for (;;) {
      if (this.accept('NOT', 'NULL') || this.accept('NULL') || this.accept('PRIMARY', 'KEY')) continue;
      if (this.accept('UNIQUE')) continue;
      if (this.accept('DEFAULT')) {
        this.defaultValue();
        continue;
      }
      return;
    }
  }
}

function createTable(c: Cursor, a: Analysis): void {
  c.expect('CREATE', 'TABLE');
  addObject(a.objects, c.object('write'));
  c.op('(');
  do {
    if (!c.tableConstraint(a)) c.column();
  } while (c.comma());
  c.op(')');
}

function createIndex(c: Cursor, a: Analysis): void {
  c.expect('CREATE');
  c.accept('UNIQUE');
  c.expect('INDEX');
  c.object('write');
  c.expect('ON');
  addObject(a.objects, c.object('write'));
  c.columns(true);
}

function alterTable(c: Cursor, a: Analysis): void {
  c.expect('ALTER', 'TABLE');
  addObject(a.objects, c.object('write'));
  if (c.accept('ADD')) {
    if (!c.tableConstraint(a)) c.column();
  } else if (c.accept('DROP', 'COLUMN')) {
    c.ident();
    a.guardrails.add('drop');
  } else if (c.accept('DROP', 'CONSTRAINT')) c.ident();
  else if (c.forms.alterColumn === 'ALTER COLUMN' && c.accept('ALTER', 'COLUMN')) {
    c.ident();
    c.type();
    if (!c.accept('NOT', 'NULL')) c.expect('NULL');
  } else if (c.forms.alterColumn === 'MODIFY' && c.accept('MODIFY')) {
    c.op('(');
    c.ident();
    const start = c.k;
    if (c.forms.columnTypes.some((t) => c.isWord(t.toUpperCase().split(/\s+/)[0]))) c.type();
    c.columnOptions();
    if (c.k === start) throw new NoMatch();
    c.op(')');
  } else if (c.forms.renames && c.accept('RENAME', 'COLUMN')) {
    c.ident();
    c.expect('TO');
    c.ident();
  } else if (c.forms.renames && c.accept('RENAME', 'TO')) c.ident();
  else throw new NoMatch();
}

/**
 * A table or index definition (`CREATE [… ] TABLE|INDEX`, `ALTER TABLE`): on an engine with designed forms,
 * one the grammar does not read is unverifiable even where a SQL grammar parses it (that grammar would let a
 * call in a default, a computed column, a CHECK or an index expression pass as a plain write).
 */
export function isTableDefinition(tokens: readonly Token[]): boolean {
  const words: string[] = [];
  for (const t of tokens) {
    if (t.kind !== 'word' || words.length === 5) break;
    words.push(t.value);
  }
  if (words[0] === 'ALTER') return words[1] === 'TABLE';
  return words[0] === 'CREATE' && words.some((w) => w === 'TABLE' || w === 'INDEX');
}

/**
 * The designed DDL statement `lx` holds, as a plain write of the tables it names, or undefined when it is not
 * wholly one of the engine's designed forms (or carries a comment: the designer writes none).
 */
export function designedDdlAnalysis(
  lx: LexResult,
  forms: DesignedDdlForms | undefined,
): Analysis | undefined {
  if (!forms || lx.comments.length > 0 || lx.executableComment) return undefined;
  const tokens = lx.tokens;
  const head = tokens[0]?.kind === 'word' ? tokens[0].value : '';
  const second = tokens[1]?.kind === 'word' ? tokens[1].value : '';
  const form =
    head === 'ALTER'
      ? alterTable
      : head !== 'CREATE'
        ? undefined
        : second === 'TABLE'
          ? createTable
          : createIndex;
  if (!form) return undefined;
  const a = emptyAnalysis(head === 'ALTER' ? 'ALTER' : 'CREATE', 'write');
  const c = new Cursor(tokens, forms, lx.normalized);
  try {
    form(c, a);
  } catch (err) {
    if (err instanceof NoMatch) return undefined;
    throw err;
  }
  return c.done() ? a : undefined;
}
