import 'reflect-metadata';
import { Injectable, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpResourceTemplate, type McpRuntimeResourceTemplateOptions } from '../../src/index.js';
// The bench measures the store's resolution itself, below the public registries.
import { ResourceStore } from '../../src/resources/resource.store.js';
import { benchUriTemplate } from '../targets.js';
import { appEndpointUrl, HOST } from './bench-server.js';
import { ItemVariables } from './items-dtos.js';

const templateName = (index: number): string => `template_${String(index).padStart(4, '0')}`;

/** The options of generated template `index`: the same for a decorated method and for McpResourceTemplateRegistry.add. */
export function templateOptions(index: number): McpRuntimeResourceTemplateOptions {
  return {
    uriTemplate: benchUriTemplate(index),
    name: templateName(index),
    description: `Template ${index} of the benchmark`,
    mimeType: 'application/json',
    variables: ItemVariables,
  };
}

/** What template `index` answers: which template served the read, and the validated id (a number). */
export const templateRead = (index: number, { id }: ItemVariables): object => ({ template: index, id });

/**
 * A provider with `count` generated `@McpResourceTemplate()` methods, as catalogueProvider generates
 * tools: what a large application would declare, discovered and registered at bootstrap.
 */
function templatesProvider(count: number): Type<object> {
  @Injectable()
  class TemplateCatalogue {}
  const prototype = TemplateCatalogue.prototype as Record<string, unknown>;
  for (let index = 0; index < count; index++) {
    const name = templateName(index);
    Object.defineProperty(prototype, name, {
      value: (variables: ItemVariables) => templateRead(index, variables),
      writable: true,
      configurable: true,
    });
    McpResourceTemplate(templateOptions(index))(prototype, name, Object.getOwnPropertyDescriptor(prototype, name)!);
  }
  return TemplateCatalogue;
}

export interface TemplatesServer {
  readonly url: string;
  readonly resources: ResourceStore;
  close(): Promise<void>;
}

/** An mcp42 app serving `count` resource templates and nothing else. */
export async function startTemplates(count: number): Promise<TemplatesServer> {
  @Module({
    imports: [McpModule.forRoot({ name: 'mcp42-templates', version: '0.1.0' })],
    providers: [templatesProvider(count)],
  })
  class TemplatesModule {}

  const app = await NestFactory.create(TemplatesModule, {
    bodyParser: false,
    logger: false,
    forceCloseConnections: true,
  });
  await app.listen(0, HOST);
  const resources = app.get(ResourceStore);
  const templates = resources.templates.size;
  if (templates !== count) throw new Error(`expected ${count} templates, got ${templates}`);
  return {
    url: appEndpointUrl(app),
    resources,
    close: () => app.close(),
  };
}
