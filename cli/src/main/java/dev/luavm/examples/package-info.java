/** Example hosts: the agent-tool use case (a script calling granted host functions under limits). */
package dev.luavm.examples;
