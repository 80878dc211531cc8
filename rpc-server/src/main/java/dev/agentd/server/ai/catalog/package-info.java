/**
 * The built-in model catalog ({@link dev.agentd.server.ai.catalog.BuiltinModels}) and pricing of
 * usage ({@link dev.agentd.server.ai.catalog.Pricing}). Imports {@code protocol} only.
 */
package dev.agentd.server.ai.catalog;
