// Response schemas shared by the portal's routes. A response schema both documents the answer in the OpenAPI
// description (and so the web kit's generated types) and serialises it: fields it does not list are dropped,
// which is why the error shape keeps every field (`{error, code, statusCode, …}` of kit/errorBody).

/** The portal error body: `{error, code, statusCode}` plus any detail a route adds (approval, guardrail, …). */
export const errorShape = {
  type: 'object',
  properties: { error: { type: 'string' }, code: { type: 'string' } },
  additionalProperties: true,
};

/** The error body under each status code a route documents besides its success. */
export const errorResponses = (...codes: number[]): Record<number, typeof errorShape> =>
  Object.fromEntries(codes.map((c) => [c, errorShape]));
