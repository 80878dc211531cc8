/**
 * The built-in model catalog ({@link dev.agentd.server.ai.catalog.Catalog}: {@code models.jsonl},
 * generated from pi's catalog, parsed one provider at a time) and pricing of usage
 * ({@link dev.agentd.server.ai.catalog.Pricing}). Imports {@code protocol} only.
 */
package dev.agentd.server.ai.catalog;
