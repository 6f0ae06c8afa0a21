/**
 * What a credential is shown as wherever inferkit shows one back: a Secret's `data`/`stringData`
 * values, clear credentials in an InferenceService (`env[].value`, `--hf_token=…`), and a hub token
 * scrubbed from an error. One word everywhere, so that one search finds every masked place. Chosen
 * over `***`: a YAML plain scalar (`***` starts an alias and must be quoted), found by `grep` without
 * escaping, and never mistaken for a real value.
 */
export const MASKED_SECRET = '<masked>';
