// Written once by mcpgen from specs/prompts.yaml as a starting point. This file is yours:
// mcpgen never overwrites it. Regenerating updates server.ts, whose types this file must satisfy.

import type { PromptsHandlers } from './server.js';

export const handlers: PromptsHandlers = {
  promptCodeReview({ code, language, focus }) {
    const about = [language && `It is ${language}.`, focus && `Focus on ${focus}.`].filter(Boolean).join(' ');
    return `Review this code for bugs and style. ${about}\n\n${code}`.replace(/ \n/, '\n');
  },
  promptSummarize({ text, max_words }) {
    return [
      { role: 'user', content: { type: 'text', text: `Summarize in at most ${max_words ?? '100'} words:\n\n${text}` } },
    ];
  },
  promptDailyStandup() {
    return { description: 'Daily stand-up', messages: [{ role: 'user', content: { type: 'text', text: 'What did you do yesterday, what will you do today, what blocks you?' } }] };
  },
};
