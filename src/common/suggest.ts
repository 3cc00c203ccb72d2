// The generator's "did you mean" is the runtime's (entry points suggest flags with it too).
export { didYouMean, editDistance } from '@mcpgen/runtime/shared/suggest';
