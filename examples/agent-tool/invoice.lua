-- Written the way a model writes a tool script: look up the vendors of a batch of
-- invoices, convert every amount to EUR, flag the large ones and summarise.
-- Host functions granted: invoice.lookup_vendor(id), invoice.convert_currency(amount, from, to)

local invoices = {
  { id = "INV-1001", vendor_id = "V-17", amount = 1250.00, currency = "USD" },
  { id = "INV-1002", vendor_id = "V-42", amount = 980.50,  currency = "GBP" },
  { id = "INV-1003", vendor_id = "V-17", amount = 15000,   currency = "USD" },
  { id = "INV-1004", vendor_id = "V-99", amount = 300,     currency = "EUR" },
}

local LARGE = 10000 -- EUR

local total = 0
local flagged = {}
local by_vendor = {}

for _, inv in ipairs(invoices) do
  local ok, vendor = pcall(invoice.lookup_vendor, inv.vendor_id)
  if not ok then
    print(string.format("%-9s vendor lookup failed: %s", inv.id, vendor))
    vendor = { name = "unknown", country = "??" }
  end

  local eur = invoice.convert_currency(inv.amount, inv.currency, "EUR")
  total = total + eur
  by_vendor[vendor.name] = (by_vendor[vendor.name] or 0) + eur

  print(string.format("%-9s %-14s %10.2f %s = %10.2f EUR", inv.id, vendor.name, inv.amount, inv.currency, eur))
  if eur >= LARGE then
    flagged[#flagged + 1] = inv.id
  end
end

local names = {}
for name in pairs(by_vendor) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do
  print(string.format("  %-14s %10.2f EUR", name, by_vendor[name]))
end

print(string.format("total: %.2f EUR, flagged: %s", total, #flagged > 0 and table.concat(flagged, ", ") or "none"))

return { total_eur = math.floor(total * 100 + 0.5) / 100, flagged = flagged, count = #invoices }
