param(
    [switch]$Export,
    [switch]$Push,
    [switch]$Check,
    [string]$Root,
    [string]$Out = ".\notion"
)

$ErrorActionPreference = "Stop"
$headers = @{
    "Authorization"  = "Bearer $env:NOTION_TOKEN"
    "Notion-Version" = "2022-06-28"
}

function Get-Blocks([string]$PageId) {
    $uri = "https://api.notion.com/v1/blocks/$PageId/children?page_size=100"
    (Invoke-RestMethod -Uri $uri -Headers $headers).results
}

if ($Check) {
    $me = Invoke-RestMethod -Uri "https://api.notion.com/v1/users/me" -Headers $headers
    Write-Output "workspace: $($me.bot.workspace_name)"
    $bridge = Invoke-RestMethod -Uri "http://127.0.0.1:17321/health"
    Write-Output "bridge: $($bridge.status)"
    exit 0
}

if ($Export) {
    New-Item -ItemType Directory -Force -Path $Out | Out-Null
    $pageId = ($Root -split "-")[-1]
    $blocks = Get-Blocks $pageId
    $md = Invoke-RestMethod -Uri "http://127.0.0.1:17321/to-markdown" -Method Post -Body ($blocks | ConvertTo-Json -Depth 20)
    Set-Content -Path (Join-Path $Out "$pageId.md") -Value $md
}
