package dev.agentd.server.rpc;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The JSON-RPC methods jsonrpc4j dispatches to: one per command, named as on the wire (hence the
 * snake_case), each taking the request's {@code params} object. {@link JsonRpcDispatcher} backs
 * them all with one proxy that decodes the params with CommandCodec and routes the command, so the
 * methods carry no logic of their own. {@code CommandMethodsTest} keeps this list equal to
 * CommandCodec's command names. Public because jsonrpc4j invokes it reflectively from its own package.
 */
public interface CommandMethods {
    // pi-compatible commands (SPEC §3.2)
    void prompt(ObjectNode params);
    void steer(ObjectNode params);
    void follow_up(ObjectNode params);
    void abort(ObjectNode params);
    void new_session(ObjectNode params);
    void get_state(ObjectNode params);
    void get_messages(ObjectNode params);
    void set_model(ObjectNode params);
    void cycle_model(ObjectNode params);
    void get_available_models(ObjectNode params);
    void set_thinking_level(ObjectNode params);
    void cycle_thinking_level(ObjectNode params);
    void set_steering_mode(ObjectNode params);
    void set_follow_up_mode(ObjectNode params);
    void compact(ObjectNode params);
    void set_auto_compaction(ObjectNode params);
    void set_auto_retry(ObjectNode params);
    void abort_retry(ObjectNode params);
    void bash(ObjectNode params);
    void abort_bash(ObjectNode params);
    void get_session_stats(ObjectNode params);
    void switch_session(ObjectNode params);
    void fork(ObjectNode params);
    void get_fork_messages(ObjectNode params);
    void get_last_assistant_text(ObjectNode params);
    void set_session_name(ObjectNode params);
    void get_commands(ObjectNode params);
    void export_html(ObjectNode params);
    void clone(ObjectNode params);
    void extension_ui_response(ObjectNode params);
    void get_available_thinking_levels(ObjectNode params);
    void get_entries(ObjectNode params);
    void get_tree(ObjectNode params);

    // agentd additions
    void get_retry_settings(ObjectNode params);
    void set_retry_settings(ObjectNode params);
    void clear_queue(ObjectNode params);
    void retry(ObjectNode params);
    void faux_enqueue(ObjectNode params);
    void set_event_options(ObjectNode params);

    // model fallback (FALLBACK.md §9)
    void get_fallback_state(ObjectNode params);
    void set_fallback_chain(ObjectNode params);
    void remove_fallback_chain(ObjectNode params);
    void set_model_fallback(ObjectNode params);
    void set_fallback_revert_policy(ObjectNode params);
}
