import { Injectable } from '@nestjs/common';
import {
  embeddedText,
  image,
  McpPrompt,
  userMessage,
  type McpCompletionRequest,
  McpCompletion,
  type PromptMessage,
} from '../../src/index.js';
import { onePixelPng } from './media.js';

/** The prompts of the `prompts-*` and `completion-complete` conformance scenarios. */
@Injectable()
export class ConformancePrompts {
  @McpPrompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  @McpPrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with required arguments',
    args: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  })
  withArguments({ arg1, arg2 }: { arg1: string; arg2: string }): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @McpCompletion({ prompt: 'test_prompt_with_arguments', argument: 'arg1' })
  completeArg1({ value }: McpCompletionRequest): string[] {
    return ['paris', 'park', 'parse', 'test', 'testing'].filter((candidate) => candidate.startsWith(value));
  }

  @McpPrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource',
    args: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  })
  withEmbeddedResource({ resourceUri }: { resourceUri: string }): PromptMessage[] {
    return [
      userMessage(embeddedText(resourceUri, 'Embedded resource content for testing.', { mimeType: 'text/plain' })),
      userMessage('Please process the embedded resource above.'),
    ];
  }

  @McpPrompt({ name: 'test_prompt_with_image', description: 'A prompt that holds an image' })
  withImage(): PromptMessage[] {
    return [userMessage(image(onePixelPng(), 'image/png')), userMessage('Please analyze the image above.')];
  }
}
