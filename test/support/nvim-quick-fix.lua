-- Driven by test/interop/neovim-lsp.test.ts: Neovim's own LSP client starts `mcpgen lsp`, waits for the
-- diagnostics of the spec it edits, asks for the code actions of the first one, applies the quick fix
-- through vim.lsp.util.apply_workspace_edit, writes the file and waits until the diagnostics are gone.
-- What happened is written to $OUT as lines `key<TAB>value`; Neovim quits in every case.
local out = {}
local function note(k, v) table.insert(out, k .. '\t' .. tostring(v)) end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(vim.env.SPEC))
  local bufnr = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({ name = 'mcpgen', cmd = { vim.env.NODE, vim.env.MCPGEN, 'lsp', '--stdio' }, root_dir = vim.env.ROOT_DIR })
  vim.lsp.buf_attach_client(bufnr, id)
  note('diagnostics', vim.wait(30000, function() return #vim.diagnostic.get(bufnr) > 0 end, 50))
  local d = vim.diagnostic.get(bufnr)[1]
  note('code', d.code)
  note('message', d.message)
  local lsp_d = (d.user_data and d.user_data.lsp) or {
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    message = d.message, code = d.code, severity = d.severity,
  }
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) }, range = lsp_d.range, context = { diagnostics = { lsp_d } } }
  local action
  for _, r in pairs(vim.lsp.buf_request_sync(bufnr, 'textDocument/codeAction', params, 30000) or {}) do
    for _, a in ipairs(r.result or {}) do action = action or a end
  end
  note('action', action and action.title)
  vim.lsp.util.apply_workspace_edit(action.edit, 'utf-16')
  vim.cmd('write')
  note('clean', vim.wait(30000, function() return #vim.diagnostic.get(bufnr) == 0 end, 50))
end)
if not ok then note('error', err) end
vim.fn.writefile(out, vim.env.OUT)
vim.cmd('qa!')
