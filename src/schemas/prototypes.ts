import { type Static, Type } from '@sinclair/typebox';
import { Id } from './common.js';

export const Prototype = Type.Object(
  {
    prototype_id: Id('Chosen by the client.'),
    prototype_name: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { title: 'Prototype' },
);
export type Prototype = Static<typeof Prototype>;

export const PrototypeIdParams = Type.Object({ prototype_id: Id() });
