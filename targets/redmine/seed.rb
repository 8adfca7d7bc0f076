# Study 000's seed data, run once by assemble.sh with rails runner after Redmine's migrations and default data:
# the admin's password (no change asked at the first login), the REST API on, and one project with every tracker.
admin = User.find_by_login('admin')
admin.password = admin.password_confirmation = ENV.fetch('REDMINE_ADMIN_PASSWORD')
admin.must_change_passwd = false
admin.save!
Setting.rest_api_enabled = '1'
project = Project.new(name: 'EnvBench', identifier: 'envbench', is_public: true)
project.enabled_module_names = %w[issue_tracking]
project.trackers = Tracker.all
project.save!
puts "envbench seed: admin, project #{project.identifier} (#{project.trackers.count} trackers), REST API on"
