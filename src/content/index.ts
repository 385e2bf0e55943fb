export {
  text,
  image,
  audio,
  resourceLink,
  embeddedText,
  embeddedBlob,
  type BinaryData,
  type ResourceLinkInit,
  type EmbeddedResourceOptions,
} from './content.builders.js';
export { userMessage, assistantMessage } from './prompt-messages.js';
