#!/usr/bin/lua
print(1)
