-- Object-oriented code through metatables, as tenants' plugins are written: classes are tables
-- used as __index of their instances, subclasses chain to their base classes through __index
-- tables (up to three levels), methods are called with ':' and overridden, and a few call the
-- base class's version explicitly. Stresses method lookups along __index chains and calls.
local n = tonumber(arg and arg[1]) or 1200000

local function class(base)
  local c = {}
  c.__index = c
  if base then setmetatable(c, { __index = base }) end
  c.new = function(...)
    local o = setmetatable({}, c)
    o:init(...)
    return o
  end
  return c
end

local Shape = class()
function Shape:init(name) self.name = name; self.moves = 0 end
function Shape:area() return 0 end
function Shape:move(dx, dy) self.x = (self.x or 0) + dx; self.y = (self.y or 0) + dy; self.moves = self.moves + 1 end
function Shape:weight() return self:area() * self:density() end
function Shape:density() return 1 end
function Shape:label() return self.name end

local Polygon = class(Shape)
function Polygon:init(name, sides) Shape.init(self, name); self.sides = sides end
function Polygon:perimeter() return self.sides * self:side() end
function Polygon:side() return 1 end

local Rect = class(Polygon)
function Rect:init(w, h) Polygon.init(self, 'rect', 4); self.w = w; self.h = h end
function Rect:area() return self.w * self.h end
function Rect:perimeter() return 2 * (self.w + self.h) end
function Rect:scale(k) self.w = self.w * k; self.h = self.h * k; return self end

local Square = class(Rect)
function Square:init(s) Rect.init(self, s, s); self.name = 'square' end
function Square:side() return self.w end
function Square:density() return 2 end

local Circle = class(Shape)
function Circle:init(r) Shape.init(self, 'circle'); self.r = r end
function Circle:area() return 3 * self.r * self.r end
function Circle:perimeter() return 6 * self.r end
function Circle:scale(k) self.r = self.r * k; return self end

local Account = class()
function Account:init(owner) self.owner = owner; self.balance = 0; self.log = 0 end
function Account:deposit(v) self.balance = self.balance + v; self:record() end
function Account:withdraw(v)
  if v > self.balance then return false end
  self.balance = self.balance - v
  self:record()
  return true
end
function Account:record() self.log = self.log + 1 end
function Account:get() return self.balance end

local Savings = class(Account)
function Savings:init(owner, rate) Account.init(self, owner); self.rate = rate end
function Savings:accrue() self:deposit(math.floor(self:get() * self.rate / 100)) end
function Savings:withdraw(v)
  if v > 100 then return false end
  return Account.withdraw(self, v)
end

local shapes = {}
for i = 1, 64 do
  local k = i % 3
  if k == 0 then shapes[i] = Rect.new(i % 7 + 1, i % 5 + 1)
  elseif k == 1 then shapes[i] = Square.new(i % 9 + 1)
  else shapes[i] = Circle.new(i % 4 + 1) end
end
local accounts = {}
for i = 1, 16 do accounts[i] = i % 2 == 0 and Savings.new('s' .. i, i % 5 + 1) or Account.new('a' .. i) end

local total, labels = 0, 0
for i = 1, n do
  local s = shapes[i % 64 + 1]
  total = total + s:area() + s:perimeter() + s:weight()
  s:move(1, -1)
  if i % 97 == 0 then s:scale(1) end
  labels = labels + #s:label()
  local a = accounts[i % 16 + 1]
  a:deposit(i % 50)
  if not a:withdraw(i % 70) then total = total + 1 end
  if i % 1000 == 0 and a.accrue then a:accrue() end
end
local balance, logs, moves = 0, 0, 0
for _, a in ipairs(accounts) do balance = balance + a:get(); logs = logs + a.log end
for _, s in ipairs(shapes) do moves = moves + s.moves end
print(string.format('oop_methods n=%d total=%d labels=%d balance=%d logs=%d moves=%d', n, total, labels, balance, logs, moves))
