-- Invoice normalizer: one invoice line in, the ledger's view of it out.
-- Runs under examples/invoice-contract/contract.yaml:
--   ./luavm run --contract examples/invoice-contract/contract.yaml \
--       --input examples/invoice-contract/input.json examples/invoice-contract/normalize.lua
-- Host functions (granted by the contract): lookup_vendor_alias(name), get_category_rules(),
-- emit_review_note(note).

local input = ...

-- "  ACME corp. " -> "Acme Corp": the fallback when the vendor master does not know the name
local function tidy(name)
  name = name:gsub("^%s+", ""):gsub("%s+$", ""):gsub("%s+", " ")
  return (name:lower():gsub("(%a)([%w']*)", function(first, rest) return first:upper() .. rest end))
end

local vendor = lookup_vendor_alias(input.vendor_name)
local known_vendor = vendor ~= nil
vendor = vendor or tidy(input.vendor_name)

local text = (input.line_item_description .. " " .. (input.memo or "")):lower()
local category, confidence = "uncategorized", 0.3
for _, rule in ipairs(get_category_rules()) do
  for _, keyword in ipairs(rule.keywords) do
    if text:find(keyword, 1, true) then
      category, confidence = rule.category, rule.confidence
      break
    end
  end
  if category ~= "uncategorized" then break end
end
if not known_vendor then confidence = confidence * 0.8 end
confidence = math.floor(confidence * 100 + 0.5) / 100

local reasons = {}
if not known_vendor then reasons[#reasons + 1] = "vendor not in master data" end
if category == "uncategorized" then reasons[#reasons + 1] = "no category rule matched" end
if input.amount >= 10000 then reasons[#reasons + 1] = "amount of 10000 or more" end

local note = ""
if #reasons > 0 then
  note = string.format("%s, %.2f %s: %s", vendor, input.amount, input.currency, table.concat(reasons, "; "))
  emit_review_note(note)
end

return {
  normalized_vendor = vendor,
  expense_category = category,
  confidence = confidence,
  review_note = note,
}
