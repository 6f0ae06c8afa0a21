/** The example manifests the demo serves, relative to the inferkit package folder. */
export const DEMO_MANIFESTS = ['examples/token-classification.yaml', 'examples/token-classification-v2.yaml', 'examples/forecast.yaml'];
