// class-validator ships the declaration of its executor apart from its CommonJS module.
declare module 'class-validator/cjs/validation/ValidationExecutor.js' {
  export { ValidationExecutor } from 'class-validator/types/validation/ValidationExecutor.js';
}
