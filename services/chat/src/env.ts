import { checkServiceEnv, serviceEnv } from '@shiplog/service-kit';
import { z } from 'zod';

export const chatEnv = serviceEnv
  .extend({
    /** Unset: `POST /api/chat` answers 503; `GET /api/chat/usage` still answers. */
    OPENAI_API_KEY: z.string().min(1).optional(),
    /** Any OpenAI-compatible server (OpenAI, Ollama, llama.cpp, vLLM); unset, OpenAI's own. */
    OPENAI_BASE_URL: z.url().optional(),
    OPENAI_MODEL: z.string().min(1).default('gpt-4o-mini'),
    /** How long one model request may take before the message is given back with a 502. */
    OPENAI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  })
  .superRefine(checkServiceEnv);
export type ChatEnv = z.infer<typeof chatEnv>;
