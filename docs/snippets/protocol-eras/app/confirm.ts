import type { ElicitationSchema } from 'mcp42/protocol';

/** The one-question form the user answers. */
export const CONFIRM: ElicitationSchema = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Yes, delete it' } },
  required: ['confirm'],
};
