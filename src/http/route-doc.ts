/**
 * What the OpenAPI document says of a route beside its schemas: tag, summary, operationId and the
 * prose of the behaviour a client relies on (the decisions where the contract is silent). Each
 * capability keeps its routes' docs in its own `docs.ts`.
 */
export interface RouteDoc {
  tags: string[];
  summary: string;
  operationId: string;
  description?: string;
}

export const doc = (tag: string, summary: string, operationId: string, description?: string): RouteDoc => ({
  tags: [tag],
  summary,
  operationId,
  ...(description === undefined ? {} : { description }),
});
