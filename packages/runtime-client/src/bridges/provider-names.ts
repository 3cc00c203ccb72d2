// The name mapping lives in the runtime's shared code: `mcpgen check --target` reports the same provider
// names the bridges send (one implementation for both).
export { GEMINI_NAMES, OPENAI_NAMES, isProviderSafeName, providerNames, type NameRule, type ProviderNames } from '@mcpgen/runtime/shared/provider-names';
