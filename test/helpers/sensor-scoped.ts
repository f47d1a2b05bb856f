import pg from 'pg';
import { parse } from 'libpg-query';

/** The tables a distributed store spreads by sensor: every statement on them must say which sensors. */
export const SENSOR_TABLES = new Set(['measurements', 'history_buckets', 'history_pending']);

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null;

/** A WHERE or ON clause cut into the conditions that must all hold (its ANDs; an OR is one condition). */
function conjuncts(clause: unknown): Node[] {
  if (!isNode(clause)) return [];
  const bool = clause.BoolExpr as { boolop: string; args: unknown[] } | undefined;
  if (bool?.boolop === 'AND_EXPR') return bool.args.flatMap(conjuncts);
  return [clause];
}

function columnOf(expr: unknown): string[] | undefined {
  const ref = isNode(expr) ? (expr.ColumnRef as { fields: { String?: { sval: string } }[] } | undefined) : undefined;
  return ref?.fields.map((f) => f.String?.sval ?? '*');
}

/** True when the condition pins `sensor_id` of `alias` to values (=, IN, = ANY of something not a column). */
function pinsSensor(condition: Node, alias: string, soleTable: boolean): boolean {
  const names = (column: string[] | undefined) => {
    if (!column || column[column.length - 1] !== 'sensor_id') return false;
    const qualifier = column.length > 1 ? column[column.length - 2] : undefined;
    return qualifier === undefined ? soleTable : qualifier === alias;
  };
  const sub = condition.SubLink as { subLinkType: string; testexpr?: unknown } | undefined;
  if (sub) return sub.subLinkType === 'ANY_SUBLINK' && names(columnOf(sub.testexpr));
  const a = condition.A_Expr as { kind: string; name: { String: { sval: string } }[]; lexpr: unknown; rexpr: unknown } | undefined;
  if (!a) return false;
  const op = a.name[0]?.String.sval;
  if (!(a.kind === 'AEXPR_IN' || ((a.kind === 'AEXPR_OP' || a.kind === 'AEXPR_OP_ANY') && op === '='))) return false;
  for (const [side, other] of [
    [a.lexpr, a.rexpr],
    [a.rexpr, a.lexpr],
  ]) {
    const column = columnOf(side);
    if (!column || column[column.length - 1] !== 'sensor_id') continue;
    const qualifier = column.length > 1 ? column[column.length - 2] : undefined;
    if (qualifier === undefined ? !soleTable : qualifier !== alias) continue;
    if (columnOf(other)) continue;
    return true;
  }
  return false;
}

interface TableRef {
  table: string;
  alias: string;
}

/** The watched tables a FROM list reads (joins included), and the ON conditions of its joins. */
function fromList(items: unknown[]): { refs: TableRef[]; on: Node[]; others: number } {
  const refs: TableRef[] = [];
  const on: Node[] = [];
  let others = 0;
  const visit = (item: unknown) => {
    if (!isNode(item)) return;
    const range = item.RangeVar as { relname: string; alias?: { aliasname: string } } | undefined;
    if (range) {
      if (SENSOR_TABLES.has(range.relname)) refs.push({ table: range.relname, alias: range.alias?.aliasname ?? range.relname });
      else others++;
      return;
    }
    const join = item.JoinExpr as { larg: unknown; rarg: unknown; quals?: unknown } | undefined;
    if (join) {
      visit(join.larg);
      visit(join.rarg);
      on.push(...conjuncts(join.quals));
      return;
    }
    others++;
  };
  for (const item of items) visit(item);
  return { refs, on, others };
}

/** What is wrong with one statement, or undefined when every read and change of a watched table names its sensors. */
function problemsOf(stmt: unknown, problems: string[]): void {
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n);
      return;
    }
    if (!isNode(node)) return;
    for (const [kind, body] of Object.entries(node)) {
      if (!isNode(body)) {
        walk(body);
        continue;
      }
      if (kind === 'SelectStmt' || kind === 'UpdateStmt' || kind === 'DeleteStmt') {
        const items = [
          ...((body.fromClause as unknown[]) ?? []),
          ...((body.usingClause as unknown[]) ?? []),
          ...(body.relation ? [{ RangeVar: body.relation }] : []),
        ];
        const { refs, on, others } = fromList(items);
        const conditions = [...conjuncts(body.whereClause), ...on];
        const sole = refs.length === 1 && others === 0;
        for (const ref of refs) {
          if (!conditions.some((c) => pinsSensor(c, ref.alias, sole)))
            problems.push(`${kind.replace('Stmt', '').toLowerCase()} of ${ref.table} without a sensor_id`);
        }
      } else if (kind === 'InsertStmt') {
        const table = (body.relation as { relname: string }).relname;
        const cols = ((body.cols as { ResTarget: { name: string } }[]) ?? []).map((c) => c.ResTarget.name);
        if (SENSOR_TABLES.has(table) && !cols.includes('sensor_id')) problems.push(`insert into ${table} without its sensor_id`);
      } else if (kind === 'CopyStmt') {
        const table = (body.relation as { relname: string } | undefined)?.relname;
        const cols = ((body.attlist as { String: { sval: string } }[]) ?? []).map((c) => c.String.sval);
        if (table && SENSOR_TABLES.has(table) && !(body.is_from && cols.includes('sensor_id')))
          problems.push(`copy of ${table} without its sensor_id`);
      }
      walk(body);
    }
  };
  walk(stmt);
}

/** Statements that change the schema (partitions made, attached, detached, dropped; truncation) are not queries. */
const SCHEMA_CHANGES = new Set([
  'CreateStmt',
  'AlterTableStmt',
  'DropStmt',
  'TruncateStmt',
  'VacuumStmt',
  'LockStmt',
  'AlterSeqStmt',
  'IndexStmt',
  'TransactionStmt',
  'VariableSetStmt',
]);

/** The problems of a SQL text (one or more statements): each read or change of a measurement or bucket table that names no sensor. */
export async function unscopedIn(text: string): Promise<string[]> {
  if (![...SENSOR_TABLES].some((t) => new RegExp(`\\b${t}\\b`).test(text))) return [];
  const parsed = (await parse(text)) as { stmts: { stmt: Node }[] };
  const problems: string[] = [];
  for (const { stmt } of parsed.stmts) {
    if (SCHEMA_CHANGES.has(Object.keys(stmt)[0])) continue;
    problemsOf(stmt, problems);
  }
  return problems;
}

/**
 * Records the text of every statement any PostgreSQL client of this process sends (queries and
 * COPY alike), from now until `stop`.
 */
export function recordStatements(): { statements: string[]; stop(): void } {
  const statements: string[] = [];
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0];
    const text = typeof first === 'string' ? first : isNode(first) && typeof first.text === 'string' ? first.text : undefined;
    if (text !== undefined) statements.push(text);
    return original.apply(this, args);
  };
  return {
    statements,
    stop: () => {
      proto.query = original;
    },
  };
}
