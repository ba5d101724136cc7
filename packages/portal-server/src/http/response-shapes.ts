// The building blocks of the portal's response schemas (http/response-schemas.ts says what a response schema
// does and why objects stay open): open objects, the error body, any-typed values, nullable scalars and rows.
import { type TSchema, Type } from 'typebox';

/**
 * Route option for answers that carry rows or long object lists: serialised by `JSON.stringify`, the schema
 * only documents them. The schema serialiser walks open row objects key by key and was ten times slower
 * (150 ms against 15 ms for a 20,000-row, ten-column body), which `/api/db/query` cannot afford; and it
 * would coerce a cell to a declared type, where a row's cells are the engine's.
 */
export const rowsAsJson = {
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
} as const;

/** An object with the listed fields and whatever else the route adds (never dropped). */
export const Open = <P extends Record<string, TSchema>>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });

/** The portal error body: `{error, code, statusCode}` plus any detail a route adds (approval, guardrail, …). */
export const errorShape = {
  type: 'object',
  properties: { error: { type: 'string' }, code: { type: 'string' } },
  additionalProperties: true,
};

/** The error body under each status code a route documents besides its success. */
export const errorResponses = (...codes: number[]): Record<number, typeof errorShape> =>
  Object.fromEntries(codes.map((c) => [c, errorShape]));

/** A JSON object whose fields the route's description lists (a shape that varies by engine or provider). */
export const JsonObject = (description: string) => Open({}, description);

/** A JSON value of any type (a row cell, a plan node, a provider's own report). */
export const Any = Type.Unknown();

export const Success = Open({ success: Type.Boolean() }, '`{success: true}` and any detail the route adds');

/** An HTML page (the single-page app's index) or a redirect to another page. */
export const HtmlPage = Type.String({ description: 'text/html: the web UI' });
export const PlainText = Type.String({ description: 'text/plain' });
export const Redirect = Type.Null({ description: '302 redirect (Location header)' });

export const NullableString = Type.Union([Type.String(), Type.Null()]);
export const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);

/** Rows keep every cell as the provider returned it (a masked cell is its mask). */
export const Rows = Type.Array(Open({}, 'A row: column name → cell'));
