/** The text of a tool result's only content block; fails unless there is exactly one, a text block. */
export function onlyText(result: object): string {
  const content = ((result as { content?: unknown }).content ?? []) as { type: string; text?: unknown }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  expect(typeof content[0]!.text).toBe('string');
  return content[0]!.text as string;
}
