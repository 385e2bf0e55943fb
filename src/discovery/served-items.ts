import type { McpServedItems } from '../interfaces/mcp-module-options.interface.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';

type Kind = keyof McpServedItems;

/** How each kind's items are named in the option, for messages. */
const KEY_NAMES: Readonly<Record<Kind, string>> = {
  tools: 'tool',
  resources: 'resource URI',
  resourceTemplates: 'resource template',
  prompts: 'prompt',
};

/**
 * Which decorated items one server serves (`options.items`): every one when the option is absent,
 * else those it names. Remembers every item it is asked about, so that a name in the option that no
 * decorated item has is found (a typo would otherwise serve nothing, without a word).
 */
export class ServedItems {
  private readonly seen: { [K in Kind]: Set<string> } = {
    tools: new Set(),
    resources: new Set(),
    resourceTemplates: new Set(),
    prompts: new Set(),
  };
  private readonly selected: { [K in Kind]?: ReadonlySet<string> } | undefined;

  constructor(
    items: McpServedItems | undefined,
    private readonly server: string,
  ) {
    this.selected =
      items &&
      (Object.fromEntries(
        Object.entries(items).map(([kind, names]: [string, readonly string[]]) => [kind, new Set(names)]),
      ) as {
        [K in Kind]?: ReadonlySet<string>;
      });
  }

  /** Whether the decorated item of `kind` keyed `key` is served here (and remembers it exists). */
  serves(kind: Kind, key: string): boolean {
    this.seen[kind].add(key);
    return this.selects(kind, key);
  }

  /**
   * Whether a completion of the item of `kind` keyed `key` belongs to another server: the item exists
   * among the decorated ones, and this server does not serve it. (One of no item at all is not
   * skipped: attaching it fails, naming what it completes.)
   */
  elsewhere(kind: Kind, key: string): boolean {
    return this.seen[kind].has(key) && !this.selects(kind, key);
  }

  private selects(kind: Kind, key: string): boolean {
    if (this.selected === undefined) return true;
    return this.selected[kind]?.has(key) ?? false;
  }

  /**
   * Refuses names of the option that no decorated item has, once every item was asked about.
   * @throws McpDefinitionError naming them.
   */
  checkNamed(): void {
    if (this.selected === undefined) return;
    const unknown = (Object.keys(this.selected) as Kind[]).flatMap((kind) =>
      [...this.selected![kind]!].filter((key) => !this.seen[kind].has(key)).map((key) => `${KEY_NAMES[kind]} ${key}`),
    );
    if (unknown.length === 0) return;
    throw new McpDefinitionError(
      `McpModule '${this.server}': options.items names what no decorated method of the application serves: ` +
        unknown.join(', '),
    );
  }
}
