/** A trimmed copy of the shape of pi's table, for the generator test. */
export const defaultModelPerProvider = {
    "amazon-bedrock": "us.anthropic.claude-x-5",
    anthropic: "claude-x-5",
    openai: "gpt-y",
};
