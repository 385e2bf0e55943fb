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
} from './content.helpers.js';
export { userMessage, assistantMessage } from './prompt-messages.js';
