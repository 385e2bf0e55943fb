export * from './content.helpers.js';
