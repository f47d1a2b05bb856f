import { type Static, Type } from '@sinclair/typebox';
import { DateTimeInput, DateTimeOutput } from '../domain/schema-common.js';

/** Most changes one request lists. */
export const MAX_DECISIONS_PAGE = 1000;

export const DecisionListQuery = Type.Object({
  start_time: Type.Optional(DateTimeInput('Only changes at or after this instant.')),
  end_time: Type.Optional(DateTimeInput('Only changes before this instant.')),
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_DECISIONS_PAGE,
      default: 100,
      description: `At most this many, newest first (1 to ${MAX_DECISIONS_PAGE}, default 100).`,
    }),
  ),
  before: Type.Optional(
    DateTimeInput('Only changes strictly before this instant: the `at` of the last one of the previous page, for paging.'),
  ),
});
export type DecisionListQuery = Static<typeof DecisionListQuery>;

export const DecisionChange = Type.Object(
  {
    at: DateTimeOutput('When the decision changed to this reason.'),
    reason: Type.String({ description: 'The decision’s stable code from then on (ok, waiting, interlock, limit, stale, locked_out, …).' }),
    status: Type.String({ description: 'The decision in words then: which interlock, which limit, since when.' }),
    activate: Type.Boolean({ description: 'Whether the pump would have run at that instant.' }),
    by: Type.Union([Type.String(), Type.Null()], {
      description:
        'Who caused the change, where a person did (an unlock, a settings change) and the service knows who (enforced mode); else null.',
    }),
  },
  { $id: 'DecisionChange', title: 'DecisionChange' },
);
export type DecisionChange = Static<typeof DecisionChange>;
