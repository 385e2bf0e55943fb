import { Injectable } from '@nestjs/common';
import { McpTool, McpToolError, type CallToolResult, type ContentBlock } from '../../src/index.js';
import { JSON_SCHEMA_2020_12_INPUT } from './json-schema-2020-12.args.js';
import { onePixelPng, shortWav } from './media.js';

/** Base64 of the fixture's media, computed once when the module loads. */
const PNG_BASE64 = onePixelPng().toString('base64');
const WAV_BASE64 = shortWav().toString('base64');

/**
 * The tools of the content and error conformance scenarios (`@modelcontextprotocol/conformance@0.1.13`);
 * the scenarios that need the server to talk back during a call use `ConformanceInteractionTools`.
 */
@Injectable()
export class ConformanceTools {
  @McpTool({ name: 'test_simple_text', description: 'Tests simple text content response' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @McpTool({ name: 'test_image_content', description: 'Tests image content response' })
  imageContent(): ContentBlock[] {
    return [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }];
  }

  @McpTool({ name: 'test_audio_content', description: 'Tests audio content response' })
  audioContent(): ContentBlock[] {
    return [{ type: 'audio', data: WAV_BASE64, mimeType: 'audio/wav' }];
  }

  @McpTool({ name: 'test_embedded_resource', description: 'Tests embedded resource content response' })
  embeddedResource(): ContentBlock[] {
    return [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ];
  }

  @McpTool({
    name: 'test_multiple_content_types',
    description: 'Tests response with multiple content types (text, image, resource)',
  })
  multipleContentTypes(): CallToolResult {
    return {
      content: [
        { type: 'text', text: 'Multiple content types test:' },
        { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    };
  }

  @McpTool({ name: 'test_error_handling', description: 'Tests error response handling' })
  errorHandling(): never {
    throw new McpToolError('This tool intentionally returns an error for testing');
  }

  @McpTool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features ($schema, $defs, additionalProperties)',
    input: JSON_SCHEMA_2020_12_INPUT,
  })
  jsonSchema202012(args: Record<string, unknown>): string {
    return JSON.stringify(args);
  }
}
