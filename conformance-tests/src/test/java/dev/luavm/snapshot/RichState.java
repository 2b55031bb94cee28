package dev.luavm.snapshot;

/**
 * A script that builds a state with a bit of everything a snapshot must carry: closures sharing
 * upvalues, metatables with metamethods, a suspended generator (coroutine.wrap) and a suspended
 * coroutine with locals and a pcall on its frame stack, weak tables, binary strings, floats of
 * every kind, a gmatch iterator, functions made by load, the random generator in use; and a
 * script that uses all of it (its output depends on every part).
 */
final class RichState {
    private RichState() {}

    static final String SETUP = """
            local function account(balance)
              local log = {}
              local self = {}
              function self.deposit(n) balance = balance + n; log[#log + 1] = 'd' .. n; return balance end
              function self.withdraw(n) balance = balance - n; log[#log + 1] = 'w' .. n; return balance end
              function self.history() return table.concat(log, ',') end
              return self
            end
            acct = account(100)
            acct.deposit(20)
            Vec = {}
            Vec.__index = Vec
            Vec.__add = function(a, b) return setmetatable({x = a.x + b.x, y = a.y + b.y}, Vec) end
            Vec.__tostring = function(v) return '(' .. v.x .. ',' .. v.y .. ')' end
            Vec.__eq = function(a, b) return a.x == b.x and a.y == b.y end
            function Vec.new(x, y) return setmetatable({x = x, y = y}, Vec) end
            origin = Vec.new(0, 0)
            squares = coroutine.wrap(function()
              for i = 1, 1000 do coroutine.yield(i * i) end
            end)
            squares(); squares()
            worker = coroutine.create(function(job)
              local done = {}
              while true do
                local ok, err = pcall(function()
                  if job == 'bad' then error('bad job') end
                  done[#done + 1] = job
                end)
                job = coroutine.yield(#done, ok, err)
              end
            end)
            coroutine.resume(worker, 'first')
            weakk = setmetatable({}, {__mode = 'k'})
            weakv = setmetatable({}, {__mode = 'v'})
            anchor = {}
            weakk[anchor] = 'kept'
            weakk[{}] = 'gone at the next collection'
            weakv[1] = anchor
            weakv[2] = {}
            bin = '\\0\\1\\2\\255\\254' .. string.rep('\\128', 50) .. 'end'
            floats = {0.1, -0.0, 1/0, -1/0, 0/0, 2^53, -2^63, math.pi, 1e-310, math.maxinteger, math.mininteger}
            words = string.gmatch('alpha beta gamma delta epsilon', '%a+')
            words()
            double = load('local x = ... return x * 2', '=double')
            adder = load('local a, b = ... return function(c) return a + b + c end')(1, 2)
            rnd = math.random(1, 1000000)
            nested = {a = {b = {c = {d = 'deep'}}}}
            for i = 1, 50 do nested[i] = {i, tostring(i), i + 0.5} end
            ids = tostring({}) .. tostring(print)
            """;

    static final String USE = """
            local out = {}
            local function add(...) local t = table.pack(...) for i = 1, t.n do out[#out + 1] = tostring(t[i]) end end
            add(acct.deposit(5), acct.withdraw(30), acct.history())
            local v = Vec.new(1, 2) + Vec.new(3, 4)
            add(tostring(v), v == Vec.new(4, 6), origin == Vec.new(0, 0))
            add(squares(), squares(), squares())
            add(coroutine.resume(worker, 'second'))
            add(coroutine.resume(worker, 'bad'))
            add(coroutine.status(worker))
            local n = 0 for k, val in pairs(weakk) do n = n + 1 end
            add(n, weakv[1] == anchor)
            collectgarbage()
            n = 0 for k, val in pairs(weakk) do n = n + 1 end
            add(n, weakv[2], #bin, bin:byte(1, 5))
            for i = 1, #floats do add(string.format('%q', floats[i])) end
            add(words(), words(), double(21), adder(10))
            add(math.random(1, 1000000), math.random(), rnd)
            add(nested.a.b.c.d, #nested, nested[50][3])
            add(tostring({}), ids)
            local keys = {}
            for k in pairs(_G) do keys[#keys + 1] = tostring(k) end
            table.sort(keys)
            add(table.concat(keys, ' '))
            print(table.concat(out, ' | '))
            """;
}
