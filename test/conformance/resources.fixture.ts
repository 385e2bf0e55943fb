import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceTemplate } from '../../src/index.js';
import { onePixelPng } from './media.js';

/** The resources of the `resources-*` conformance scenarios (`@modelcontextprotocol/conformance@0.1.13`). */
@Injectable()
export class ConformanceResources {
  @McpResource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource for testing',
    mimeType: 'text/plain',
  })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @McpResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG image) for testing',
    mimeType: 'image/png',
  })
  staticBinary(): Buffer {
    return onePixelPng();
  }

  @McpResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients subscribe to',
    mimeType: 'text/plain',
  })
  watched(): string {
    return 'Watched resource content.';
  }

  @McpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for an id, read through a resource template',
    mimeType: 'application/json',
  })
  templateData({ id }: { id: string }): object {
    return { id, templateTest: true, data: `Data for ID: ${id}` };
  }
}
