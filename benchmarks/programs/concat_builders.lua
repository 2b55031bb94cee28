-- Building text with table.concat buffers, as report and template code does: an HTML-like
-- table and a CSV file built row by row into buffers, nested builders joined with separators,
-- escaping through gsub, string.rep for padding, and the parts joined at the end.
local n = tonumber(arg and arg[1]) or 100000

local function escape_html(s)
  return (s:gsub('[&<>"]', { ['&'] = '&amp;', ['<'] = '&lt;', ['>'] = '&gt;', ['"'] = '&quot;' }))
end

local function csv_field(s)
  if s:find('[,"\n]') then return '"' .. s:gsub('"', '""') .. '"' end
  return s
end

local names = { 'Widget', 'Gadget <pro>', 'Tom & Jerry', 'say "hi"', 'plain', 'a,b,c' }

local html, csv = {}, {}
local total = 0
for page = 1, math.floor(n / 100) do
  local rows = {}
  for r = 1, 100 do
    local i = (page - 1) * 100 + r
    local name = names[i % #names + 1]
    local cells = {
      tostring(i),
      escape_html(name),
      string.format('%.2f', (i % 977) * 1.5),
      string.rep('*', i % 5 + 1),
    }
    rows[#rows + 1] = '<tr><td>' .. table.concat(cells, '</td><td>') .. '</td></tr>'
    local fields = { tostring(i), csv_field(name), tostring(i % 977), csv_field('note ' .. i % 13) }
    csv[#csv + 1] = table.concat(fields, ',')
  end
  local block = '<table id="p' .. page .. '">\n' .. table.concat(rows, '\n') .. '\n</table>'
  html[#html + 1] = block
  total = total + #block
end
local doc = table.concat(html, '\n')
local file = table.concat(csv, '\n')
-- a second pass: an index of every tenth row, built in reverse with insert at the end
local index = {}
for i = #csv, 1, -10 do index[#index + 1] = csv[i]:sub(1, 12) end
local idx = table.concat(index, ';', 1, #index)
local hash = 0
for _, s in ipairs({ doc, file, idx }) do
  for i = 1, #s, 17 do hash = (hash * 31 + s:byte(i)) % 2147483647 end
end
print(string.format('concat_builders n=%d html=%d csv=%d index=%d total=%d hash=%d', n, #doc, #file, #idx, total, hash))
