import type { Observable } from 'rxjs';

/** What a registry reads and changes in its store: a catalogue of items with definitions. */
interface RegistryStore<D> {
  readonly changes: Observable<void>;
  readonly size: number;
  remove(key: string): boolean;
  disable(key: string): boolean;
  enable(key: string): boolean;
  has(key: string): boolean;
  isEnabled(key: string): boolean;
  find(key: string): { readonly definition: D } | undefined;
  registeredItems(): readonly { readonly definition: D }[];
}

/**
 * The verbs every registry of items shares (tools, resources, resource templates, prompts), over
 * the store of its kind: each registry adds its own `add()`. The key is a tool's or prompt's name,
 * a resource's URI, a template's URI template.
 *
 * @typeParam D the item's advertised definition (`ToolDefinition`, `ResourceDefinition`...).
 * @category Registries
 */
export abstract class McpItemRegistry<D> {
  /** @internal */
  protected constructor(private readonly items: RegistryStore<D>) {
    // The constructor is not in the published types: `new McpToolRegistry()` type-checks, and would
    // fail on first use without saying why.
    if (!items) {
      throw new TypeError(
        `${new.target.name} is made by McpModule: inject it, or get it with app.get(${new.target.name})`,
      );
    }
  }

  /** Emits once per burst of changes to the served items, after the burst. */
  get changes(): Observable<void> {
    return this.items.changes;
  }

  /** Items registered, enabled or not. */
  get size(): number {
    return this.items.size;
  }

  /**
   * Stops serving an item; requests already running finish.
   * @returns whether there was such an item.
   */
  remove(key: string): boolean {
    return this.items.remove(key);
  }

  /**
   * Hides an item from its list and answers requests for it as for an unknown item, until {@link enable}.
   * @returns whether the item exists.
   */
  disable(key: string): boolean {
    return this.items.disable(key);
  }

  /**
   * Serves a disabled item again.
   * @returns whether the item exists.
   */
  enable(key: string): boolean {
    return this.items.enable(key);
  }

  /** Whether an item with this key is registered, enabled or not. */
  has(key: string): boolean {
    return this.items.has(key);
  }

  /** Whether an item with this key is registered and served. */
  isEnabled(key: string): boolean {
    return this.items.isEnabled(key);
  }

  /** The definition of a registered item (as its list advertises it), enabled or not. */
  get(key: string): D | undefined {
    return this.items.find(key)?.definition;
  }

  /** The definitions of every registered item, enabled or not, in registration order. */
  list(): D[] {
    return this.items.registeredItems().map((item) => item.definition);
  }
}
