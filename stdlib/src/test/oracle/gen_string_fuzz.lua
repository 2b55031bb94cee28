-- Random differential cases for string.format and the pattern functions, expectations from
-- PUC-Rio Lua 5.3.6. Not a test: `lua5.3 gen_string_fuzz.lua <seed>` prints check(...) lines
-- for FuzzOracleTest (committed with seed 1).
local function render1(v)
  local t = type(v)
  if t == "string" then
    return '"' .. v:gsub('[\\"]', '\\%0'):gsub('[^\32-\126]', function(c) return string.format("\\%03d", c:byte()) end) .. '"'
  elseif math.type(v) == "integer" then return tostring(v)
  elseif t == "number" then return "f:" .. string.format("%.17g", v)
  else return tostring(v) end
end
local function javaString(s)
  return '"' .. s:gsub('[\\"]', '\\%0'):gsub("[^\32-\126]", function(c)
    if c == "\n" then return "\\n" elseif c == "\r" then return "\\r" end
    return string.format("\\u%04x", c:byte()) end) .. '"'
end
local function javaArg(v)
  if type(v) == "string" then return "s(" .. javaString(v) .. ")"
  elseif math.type(v) == "integer" then if v == math.mininteger then return "Long.MIN_VALUE" end return v .. "L"
  elseif v == math.huge then return "Double.POSITIVE_INFINITY" elseif v == -math.huge then return "Double.NEGATIVE_INFINITY"
  else return string.format("%a", v) end
end
local function case(fname, ...)
  local args = table.pack(...)
  local r = table.pack(pcall(string[fname], table.unpack(args, 1, args.n)))
  local out = {}
  for i = 2, r.n do out[#out+1] = render1(r[i]) end
  local expected = r[1] and table.concat(out, " ") or ("error: " .. tostring(r[2]))
  local j = {} for i = 1, args.n do j[#j+1] = javaArg(args[i]) end
  print(string.format("        check(%s, %s, %s);", fname:upper(), javaString(expected), table.concat(j, ", ")))
end
math.randomseed(tonumber(arg[1]))
local nums = {0, -0.0, 1, -1, 0.5, 1.5, 2.5, 0.1, 1/3, -2/3, 1e10, 1e-10, 123456.789, 9.995, 0.125, 1e22, 1e300, 5e-324, 2^-1022, 2^53, 2^63, -2^63, 1e15+0.3, 99.5, 0.05, 7, 255, -255, math.maxinteger, math.mininteger, 1/0, -1/0, 12, 100, 65}
local convs = "dioxXuceEfgGaAs"
for n = 1, 400 do
  local flags = ""
  for _ = 1, math.random(0, 3) do local f = ("-+ #0"):sub(math.random(5), nil) flags = flags .. f:sub(1,1) end
  local w = math.random() < 0.5 and tostring(math.random(0, 25)) or ""
  local p = math.random() < 0.5 and ("." .. (math.random() < 0.8 and tostring(math.random(0, 20)) or "")) or ""
  local cv = convs:sub(math.random(#convs), nil):sub(1,1)
  local v = nums[math.random(#nums)]
  if cv == "c" then v = math.random(0, 255) end
  if cv == "s" and math.random() < 0.5 then v = ("abcdefghij"):sub(1, math.random(0, 10)) end
  case("format", "[%" .. flags .. w .. p .. cv .. "]", v)
end
local atoms = {"a", "b", ".", "%a", "%d", "[ab]", "[^a]", "[a-c]", "%s", "(", ")", "()", "%1", "%b()", "%f[%a]", "%f[^a]", "$", "^", "%%", "%", "[", "]", "-", "x"}
local quant = {"", "", "", "*", "+", "-", "?"}
local subj = {"a", "b", "(", ")", " ", "1", "x", "%", "]", "\0"}
for n = 1, 600 do
  local p = ""
  for _ = 1, math.random(1, 5) do p = p .. atoms[math.random(#atoms)] .. quant[math.random(#quant)] end
  local s = ""
  for _ = 1, math.random(0, 10) do s = s .. subj[math.random(#subj)] end
  local k = math.random(4)
  if k == 1 then case("find", s, p, math.random(-3, 5))
  elseif k == 2 then case("match", s, p)
  elseif k == 3 then case("gsub", s, p, "<%0>")
  else case("gsub", s, p, "%1", math.random(0, 3)) end
end
