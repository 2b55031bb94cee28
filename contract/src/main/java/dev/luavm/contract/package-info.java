/**
 * The sandbox contract: a manifest of what one script may do, which the runtime enforces.
 *
 * <ul>
 *   <li>{@link dev.luavm.contract.Contract} reads and checks the file (YAML or JSON); errors are
 *       {@link dev.luavm.contract.ContractException}s naming the file, line and field.</li>
 *   <li>{@link dev.luavm.contract.ContractRunner} binds it to the host's registry and runs
 *       scripts under it; each run ends in an {@link dev.luavm.contract.Outcome} of one
 *       {@link dev.luavm.contract.Category}, carrying the audit log.</li>
 *   <li>{@link dev.luavm.contract.ApprovedStore} keeps the approved versions (crash-safe);
 *       {@link dev.luavm.contract.Deployment} runs only approved versions and applies the
 *       contract's {@link dev.luavm.contract.Rollback} rule, giving a
 *       {@link dev.luavm.contract.Decision}.</li>
 *   <li>{@link dev.luavm.contract.ContractSummary} is the manifest in plain words
 *       ({@code luavm contract show}); {@link dev.luavm.contract.HostModule} packages a host's
 *       registry for the command line.</li>
 * </ul>
 * docs/CONTRACT.md explains the format field by field.
 */
package dev.luavm.contract;
