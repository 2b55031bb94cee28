/**
 * luavm's script contracts: a YAML contract binds a script to its input and output schemas,
 * grants, limits and audit rule ({@code dev.luavm.contract}). Its libraries (Jackson YAML,
 * networknt json-schema-validator) are proper modules; none of their types is in the API.
 */
module dev.luavm.contract {
    requires transitive dev.luavm;
    requires transitive dev.luavm.audit.jsonl;
    requires dev.luavm.stdlib;
    requires com.fasterxml.jackson.databind;
    requires com.fasterxml.jackson.dataformat.yaml;
    requires com.networknt.schema;

    exports dev.luavm.contract;

    uses dev.luavm.contract.HostModule;
}
