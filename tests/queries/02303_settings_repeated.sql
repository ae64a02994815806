SELECT getSetting('max_download_threads') SETTINGS max_download_threads = 4, max_download_threads = 1;
SELECT getSetting('max_threads') SETTINGS max_threads = 3, max_threads = 1;
