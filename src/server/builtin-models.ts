// The built-in offline models live with the runtime (loadTokenClassifier resolves them too).
export { BUILTIN_PREFIX, builtinModels } from '../runtime/builtin-models.js';
