package dev.agentd.client;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** Subscribers of one kind of record. A subscriber that throws is reported, never fatal. */
final class Listeners<T> {
    private final List<Consumer<T>> subscribers = new CopyOnWriteArrayList<>();
    private final Consumer<Throwable> onError;

    Listeners(Consumer<Throwable> onError) {
        this.onError = onError;
    }

    /** Returns the unsubscribe action (removes exactly this registration). */
    Runnable add(Consumer<? super T> listener) {
        Consumer<T> registration = listener::accept; // a fresh object even for a listener added twice
        subscribers.add(registration);
        return () -> subscribers.remove(registration);
    }

    void dispatch(T record) {
        for (Consumer<T> subscriber : subscribers) {
            try {
                subscriber.accept(record);
            } catch (VirtualMachineError fatal) {
                throw fatal;
            } catch (Throwable failure) { // the reader thread must survive any listener
                report(onError, failure);
            }
        }
    }

    static <E> void report(Consumer<E> handler, E problem) {
        try {
            handler.accept(problem);
        } catch (RuntimeException ignored) {
            // An error handler that fails has nowhere left to report to.
        }
    }
}
