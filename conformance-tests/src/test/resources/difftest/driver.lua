-- Runs many generated programs in one lua5.3 process (ReferenceLua.java).
-- Usage: lua5.3 driver.lua PROGRAMS_FILE CHUNKNAME
-- PROGRAMS_FILE holds records "<length>\n<source bytes>". Each program is compiled with
-- load(source, CHUNKNAME) in a fresh copy of the standard globals and run under xpcall; after
-- it, one record "\1DIFFTEST\1 <status> <length>\n<message>\n" follows its output on stdout,
-- status being ok, error (message as lua.c prints it, without traceback) or limit (the
-- instruction hook stopped a runaway program).
local file, chunkname = arg[1], arg[2]
local f = assert(io.open(file, "rb"))
local data = f:read("a")
f:close()

local base = {}
for k, v in pairs(_G) do base[k] = v end

-- lua.c's msghandler, less the traceback
local function msgh(m)
  if type(m) == "string" or type(m) == "number" then return tostring(m) end
  local mt = getmetatable(m)
  if mt and rawget(mt, "__tostring") ~= nil then
    local ok, s = pcall(tostring, m)
    if ok and type(s) == "string" then return s end
  end
  return string.format("(error object is a %s value)", type(m))
end

local LIMIT = {}
local ticks = 0
local function hook()
  ticks = ticks + 1
  if ticks > 20000 then error(LIMIT) end -- 20000 x 1000 instructions
end

local pos = 1
local out = io.stdout
while pos <= #data do
  local len, start = data:match("^(%d+)\n()", pos)
  assert(len, "bad record at " .. pos)
  len = tonumber(len)
  local src = data:sub(start, start + len - 1)
  pos = start + len
  local env = {}
  for k, v in pairs(base) do env[k] = v end
  env._G = env
  local status, msg = "ok", ""
  local fn, err = load(src, chunkname, "t", env)
  if not fn then
    status, msg = "error", err
  else
    ticks = 0
    debug.sethook(hook, "", 1000)
    local ok, e = xpcall(fn, function(m) if m == LIMIT then return m end return msgh(m) end)
    debug.sethook()
    if e == LIMIT then
      status, msg = "limit", ""
    elseif not ok then
      status, msg = "error", e
    end
  end
  out:write("\1DIFFTEST\1 ", status, " ", #msg, "\n", msg, "\n")
  out:flush()
end
