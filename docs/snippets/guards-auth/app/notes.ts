/** The notes the example serves, by id. */
export const NOTES = new Map([
  ['n1', { owner: 'dev', text: 'Buy milk' }],
  ['n2', { owner: 'alice', text: 'Call the bank' }],
]);
