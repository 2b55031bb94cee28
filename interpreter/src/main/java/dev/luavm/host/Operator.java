package dev.luavm.host;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * A person or process that answers the calls a policy {@linkplain HostCallPolicy.Decision#ask
 * asks about}: a console prompt, a review queue, a chat message with two buttons.
 *
 * <p>{@link #ask} hands the request over and returns the answer to come: allow or deny (an
 * answer of ask counts as deny). The sandbox's thread waits for it, and while it waits the run's
 * time limit and {@code Sandbox.cancel()} still work: the wait ends within about 50 ms of either,
 * the call is refused, and the run ends with the limit. An answer that arrives after that is
 * ignored. The request is a snapshot, safe to read on any thread.
 *
 * <p>{@code ask} itself runs on the sandbox's thread: it should hand over and return (complete
 * the future from the other side). A callback that must block, a console prompt, is run on an
 * executor with {@link #blocking}.
 */
@FunctionalInterface
public interface Operator {
    /**
     * Hands one call over for an answer; runs on the sandbox's thread and should not block.
     *
     * @param request an immutable view of the call
     * @return the answer, when it comes
     */
    CompletionStage<HostCallPolicy.Decision> ask(CallRequest request);

    /** A blocking answer, such as reading a console. */
    @FunctionalInterface
    interface Blocking {
        /**
         * Answers one call, on the executor given to {@link #blocking}.
         *
         * @param request an immutable view of the call
         * @return the answer
         * @throws Exception counts as a denial
         */
        HostCallPolicy.Decision answer(CallRequest request) throws Exception;
    }

    /**
     * An operator that runs a blocking {@code answer} on {@code executor}; an exception from it
     * counts as deny. The sandbox waits as described above, not on {@code answer} itself.
     */
    static Operator blocking(Executor executor, Blocking answer) {
        return request -> CompletableFuture.supplyAsync(() -> {
            try {
                return answer.answer(request);
            } catch (Exception e) {
                return HostCallPolicy.Decision.deny("operator failed");
            }
        }, executor);
    }
}
