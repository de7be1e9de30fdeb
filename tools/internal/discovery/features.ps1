# Windows Dev Agent: optional-feature discovery. Embedded in the wda binary and run by
# the Windows-owned powershell.exe with -NoProfile -NonInteractive -ExecutionPolicy
# Bypass. It emits one compact JSON object on stdout and nothing else.
$ErrorActionPreference = 'Stop'
$ProgressPreference = 'SilentlyContinue'

# Lock module auto-loading to the modules shipped with this PowerShell, so a module
# planted on the user or machine PSModulePath can never shadow a cmdlet used here.
$modules = Join-Path -Path $PSHOME -ChildPath 'Modules'
if (-not [System.IO.Directory]::Exists($modules)) {
    [Console]::Error.WriteLine("PowerShell module directory was not found: $modules")
    exit 3
}
$env:PSModulePath = $modules

$names = @('Microsoft-Hyper-V', 'Containers-DisposableClientVM', 'Microsoft-Windows-Subsystem-Linux')
$features = [ordered]@{}
$errors = New-Object System.Collections.Generic.List[string]

foreach ($name in $names) {
    $state = $null
    $first = $null
    try {
        # Live-image query; it usually needs elevation.
        $f = Get-WindowsOptionalFeature -Online -FeatureName $name
        if ($null -eq $f) { throw "no result" }
        $state = [string]$f.State
    } catch {
        $first = $_.Exception.Message
    }
    if ($null -eq $state) {
        try {
            # Win32_OptionalFeature works without elevation.
            $w = Get-CimInstance -ClassName Win32_OptionalFeature -Filter "Name='$name'"
            if ($null -eq $w) { throw "no result" }
            switch ([int]$w.InstallState) {
                1 { $state = 'Enabled' }
                2 { $state = 'Disabled' }
                3 { $state = 'Absent' }
                default { throw "install state $($w.InstallState) is unknown" }
            }
        } catch {
            $msg = $_.Exception.Message
            if ($first) { $msg = "$first; $msg" }
            $errors.Add("Optional feature '$name' was not established: $msg")
        }
    }
    $features[$name] = $state
}

$out = [ordered]@{ format = 'wda-optional-features/1'; features = $features; errors = @($errors) }
[Console]::Out.Write(($out | ConvertTo-Json -Compress -Depth 10))
